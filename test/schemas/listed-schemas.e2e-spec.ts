import {
  Injectable,
  type DynamicModule,
  type INestApplicationContext,
  type Provider,
  type Type,
} from '@nestjs/common';
import { Type as NestedType } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { Test } from '@nestjs/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TicketsModule } from '../../examples/tickets/tickets.module.js';
import { AppModule } from '../../src/app/app.module.js';
import { Authorizers, McpModule, McpTool, type Tool } from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { ConformanceModule } from '../fixtures/conformance/conformance.module.js';
import { DiscoveredTools, ReturnShapeTools } from '../registry/registry-app.js';
import { DeskTools } from '../testing/desk-app.js';
import { StandardSchemaTools } from './standard-schema-tools.js';

class Address {
  @IsString() city!: string;
}

class Household {
  @ValidateNested() @NestedType(() => Address) home!: Address;
  @ValidateNested({ each: true }) @NestedType(() => Address) others!: Address[];
}

/** Nested and array DTOs, whose schemas must carry their own `$defs`. */
@Injectable()
class NestedTools {
  @McpTool({ description: 'Registers a household', inputSchema: Household })
  register(household: Household) {
    return household.home.city;
  }
}

/* Every app this repository ships or tests against, booted as it is. */
const open = { authorizer: Authorizers.allowAll(), readAuthorizer: Authorizers.allowAll() };
const withTools = (providers: Provider[]): DynamicModule => ({
  module: class FixtureToolsModule {},
  imports: [McpModule.forRoot({ name: 'fixture', version: '1', ...open })],
  providers,
});
const FIXTURES: [string, Type | DynamicModule][] = [
  ['the notes service', AppModule.forTransport('stdio')],
  ['the conformance fixture', ConformanceModule.forRoot({ transport: 'unknown' })],
  ['the tickets example', TicketsModule],
  ['the registry fixtures', withTools([DiscoveredTools, ReturnShapeTools])],
  ['the testing desk', withTools([DeskTools])],
  ['nested and array DTOs', withTools([NestedTools])],
  ['zod, valibot and ArkType tools', withTools([StandardSchemaTools])],
];

async function listedTools(module: Type | DynamicModule): Promise<Tool[]> {
  const moduleRef = await Test.createTestingModule({ imports: [module] }).compile();
  const app: INestApplicationContext = moduleRef.createNestApplication({ logger: false });
  await app.init();
  const client = await McpTestClient.connect(app);
  try {
    return await client.listTools();
  } finally {
    await client.close();
    await app.close();
  }
}

describe.each(FIXTURES)('every listed schema of %s compiles in Ajv 2020', (_name, module) => {
  it('input and output schemas are self-contained JSON Schema 2020-12', async () => {
    const tools = await listedTools(module);
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      // A fresh validator per schema: nothing resolves from another tool's definitions.
      for (const schema of [tool.inputSchema, tool.outputSchema].filter(Boolean)) {
        const ajv = new Ajv2020({ strict: false });
        expect(() => ajv.compile(schema as object)).not.toThrow();
        expect(JSON.stringify(schema)).not.toMatch(/#\/definitions\//);
      }
    }
  });
});
