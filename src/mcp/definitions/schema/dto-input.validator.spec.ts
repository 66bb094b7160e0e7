// As in an app (Nest imports it): class-transformer's @Type() reads design types through it.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { DtoInputValidator } from './dto-input.validator.js';

/* The same decorators as the service's `create_note` input. */
class CreateNoteDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title!: string;

  @IsString()
  @MaxLength(20_000)
  body!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  tags?: string[];
}

class LineDto {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  qty!: number;
}

class OrderDto {
  @IsString()
  customer!: string;

  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines!: LineDto[];
}

const problem = async (dto: new () => object, args: Record<string, unknown>) => {
  const result = await new DtoInputValidator(dto).validate(args);
  return result.ok ? undefined : result.message;
};

describe('DtoInputValidator', () => {
  it('reports absent required properties once each, and no rule about their shape', async () => {
    expect(await problem(CreateNoteDto, {})).toBe('title is required; body is required');
    expect(await problem(CreateNoteDto, { body: 'b' })).toBe('title is required');
  });

  it('treats a property with @IsOptional() as not required', async () => {
    expect(await problem(CreateNoteDto, { title: 't', body: 'b' })).toBeUndefined();
  });

  it('gives one rule per property, the one declared first', async () => {
    expect(await problem(CreateNoteDto, { title: 5, body: 'b' })).toBe('title must be a string');
    expect(await problem(CreateNoteDto, { title: '', body: 'b' })).toBe(
      'title must be longer than or equal to 1 characters',
    );
  });

  it('lists missing properties before the rules present ones break', async () => {
    expect(await problem(CreateNoteDto, { body: 'b', tags: [1] })).toBe(
      'title is required; each value in tags must be a string',
    );
  });

  it('names an undeclared property as not allowed', async () => {
    expect(await problem(CreateNoteDto, { title: 't', body: 'b', owner: 'eve' })).toBe(
      'owner is not allowed',
    );
  });

  it('validates nested DTOs in arrays, naming them by dotted paths', async () => {
    expect(await problem(OrderDto, { customer: 'c', lines: [{ name: 'n', qty: 1 }] })).toBe(
      undefined,
    );
    expect(await problem(OrderDto, { customer: 'c', lines: [{ name: 'n', qty: 1 }, {}] })).toBe(
      'lines.1.name is required; lines.1.qty is required',
    );
    expect(await problem(OrderDto, { customer: 'c', lines: [{ name: 3, qty: 0 }] })).toBe(
      'lines.0.name must be a string; lines.0.qty must not be less than 1',
    );
    expect(await problem(OrderDto, { customer: 'c', lines: [{ name: 'n', qty: 1, x: 1 }] })).toBe(
      'lines.0.x is not allowed',
    );
  });

  it('transforms valid arguments into instances, nested ones included', async () => {
    const result = await new DtoInputValidator(OrderDto).validate({
      customer: 'c',
      lines: [{ name: 'n', qty: 2 }],
    });
    expect(result.ok).toBe(true);
    const order = (result as { value: OrderDto }).value;
    expect(order).toBeInstanceOf(OrderDto);
    expect(order.lines[0]).toBeInstanceOf(LineDto);
  });
});
