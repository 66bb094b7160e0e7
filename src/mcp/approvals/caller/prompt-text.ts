/**
 * The ask prompt as the client is shown it: a policy may build it from the
 * caller's own arguments, so it is cut to `max` characters (marked `…`)
 * rather than echoing an unbounded string back.
 */
export function promptText(prompt: string, max: number): string {
  return prompt.length <= max ? prompt : `${prompt.slice(0, Math.max(0, max - 1))}…`;
}
