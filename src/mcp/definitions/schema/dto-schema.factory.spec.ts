// As in an app (Nest imports it): class-transformer's @Type() reads design types through it.
import 'reflect-metadata';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Type } from 'class-transformer';
import { IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { McpToolDefinition } from '../interfaces/tool.interface.js';
import { McpDefinitionError } from '../registry.errors.js';
import { createToolEntry } from '../registry-entry.factory.js';
import { createDtoContract } from './dto-schema.factory.js';

class GeoDto {
  @IsNumber()
  lat!: number;

  @IsNumber()
  lon!: number;
}

class AddressDto {
  @IsString()
  city!: string;

  @ValidateNested()
  @Type(() => GeoDto)
  geo!: GeoDto;
}

class ContactDto {
  @IsString()
  name!: string;

  @ValidateNested({ each: true })
  @Type(() => AddressDto)
  addresses!: AddressDto[];

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  billing?: AddressDto;
}

class CategoryDto {
  @IsString()
  label!: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => CategoryDto)
  children?: CategoryDto[];
}

const geo = { lat: 1, lon: 2 };
const handler = () => 'ok';
const tool = (name: string, inputSchema: McpToolDefinition['inputSchema']) =>
  createToolEntry({ name, description: 'd', inputSchema, handler }, 'Spec.tool');

/* Each fixture tool with an argument its schema accepts and a nested one it refuses. */
const FIXTURES = [
  {
    entry: tool('contact', ContactDto),
    valid: { name: 'Ada', addresses: [{ city: 'London', geo }], billing: { city: 'Paris', geo } },
    invalid: { name: 'Ada', addresses: [{ city: 'London', geo: { lat: 'north', lon: 2 } }] },
  },
  {
    entry: tool('category', CategoryDto),
    valid: { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] },
    invalid: { label: 'a', children: [{ label: 'b', children: [{}] }] },
  },
  {
    entry: tool('raw', {
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: { at: { $ref: '#/$defs/point' } },
    }),
    valid: { at: { x: 1 } },
    invalid: { at: {} },
  },
];

describe('listed input schemas', () => {
  it.each(FIXTURES.map((fixture) => [fixture.entry.tool.name, fixture]))(
    '%s compiles on its own with Ajv 2020 and tells nested arguments apart',
    async (_name, { entry, valid, invalid }) => {
      const validate = new Ajv2020({ strict: false }).compile(entry.tool.inputSchema);
      expect(validate(valid)).toBe(true);
      expect(validate(invalid)).toBe(false);
      expect((await entry.input.validate(valid)).ok).toBe(true);
      expect((await entry.input.validate(invalid)).ok).toBe(false);
    },
  );

  it('puts nested-of-nested and array item DTOs under $defs, referenced as #/$defs/X', () => {
    const { schema } = createDtoContract(ContactDto);
    expect(Object.keys(schema.$defs as object).sort()).toEqual(['AddressDto', 'GeoDto']);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.addresses).toEqual({ type: 'array', items: { $ref: '#/$defs/AddressDto' } });
    expect(properties.billing).toEqual({ $ref: '#/$defs/AddressDto' });
    expect(schema.required).toEqual(['name', 'addresses']);
    expect((schema.$defs as Record<string, object>).AddressDto).toEqual(
      expect.objectContaining({ additionalProperties: false, required: ['city', 'geo'] }),
    );
  });

  it('lists a flat DTO without $defs', () => {
    expect(createDtoContract(GeoDto).schema).not.toHaveProperty('$defs');
  });

  it('tells the missing nested property by its dotted path', async () => {
    const [contact] = FIXTURES;
    const result = await contact.entry.input.validate({
      name: 'Ada',
      addresses: [{ city: 'London', geo: { lat: 1 } }],
    });
    expect(result).toEqual({ ok: false, message: 'addresses.0.geo.lon is required' });
  });

  it('refuses a @ValidateNested() property without @Type() at registration', () => {
    class Untyped {
      @ValidateNested()
      geo!: GeoDto;
    }
    expect(() => tool('untyped', Untyped)).toThrow(McpDefinitionError);
    expect(() => tool('untyped', Untyped)).toThrow(/Untyped\.geo .*@Type/);
  });
});
