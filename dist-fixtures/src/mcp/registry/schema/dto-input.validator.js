import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
/**
 * Validates arguments with a class-validator DTO. The listed JSON Schema is
 * derived from the same decorators, so the two cannot drift apart; unknown
 * properties are refused, matching `additionalProperties: false`.
 */
export class DtoInputValidator {
    constructor(dto) {
        this.dto = dto;
        const derived = targetConstructorToSchema(dto);
        this.schema = { type: 'object', properties: {}, ...derived, additionalProperties: false };
    }
    async validate(args) {
        const instance = plainToInstance(this.dto, args);
        const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
        if (errors.length === 0)
            return { ok: true, value: instance };
        return { ok: false, message: describe(errors).join('; ') };
    }
}
function describe(errors, path = '') {
    return errors.flatMap((error) => {
        const at = path ? `${path}.${error.property}` : error.property;
        const own = Object.values(error.constraints ?? {}).map((text) => `${at}: ${text}`);
        return [...own, ...describe(error.children ?? [], at)];
    });
}
//# sourceMappingURL=dto-input.validator.js.map