import { bootFailure, type McpTestApp } from '../support/mcp-test-app.js';
import {
  BadNameTools,
  NoDescriptionTools,
  StringInputTools,
  DuplicateTools,
} from './registry-app.js';
describe('registry', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('invalid definitions fail at boot', () => {
    it("rejects a tool named 'bad name', naming Provider.method", async () => {
      const error = await bootFailure({}, [BadNameTools]);
      expect(error.message).toContain('BadNameTools.spaced');
      expect(error.message).toContain('bad name');
    });

    it('rejects a tool with no description, naming Provider.method', async () => {
      const error = await bootFailure({}, [NoDescriptionTools]);
      expect(error.message).toContain('NoDescriptionTools.undescribed');
    });

    it('rejects a non-object input schema, naming Provider.method', async () => {
      const error = await bootFailure({}, [StringInputTools]);
      expect(error.message).toContain('StringInputTools.stringy');
    });

    it('rejects duplicate tool names, naming Provider.method', async () => {
      const error = await bootFailure({}, [DuplicateTools]);
      expect(error.message).toContain('DuplicateTools.second');
      expect(error.message).toContain('same');
    });
  });
});
