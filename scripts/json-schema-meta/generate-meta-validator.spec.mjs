import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { GENERATED, metaValidatorSource } from './generate-meta-validator.mjs';

describe('the generated 2020-12 meta-schema validator', () => {
  it('is what the installed Ajv generates (run the script after upgrading Ajv)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(metaValidatorSource());
  });
});
