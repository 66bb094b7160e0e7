/**
 * Stands in, after decoding, for a member of a message's `params` whose
 * shape crossed a bound before `JSON.parse` ever built it. Whoever judges
 * that member's shape (`argumentShapeProblem`) reads the bound it crossed
 * from here, so the message gets the same answer as one whose member was
 * built and then measured.
 */
export class McpOversizedValue {
  constructor(readonly problem: string) {
    Object.freeze(this);
  }
}
