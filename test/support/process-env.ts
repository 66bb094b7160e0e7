/**
 * Sets `values` in `process.env` (for a suite that builds the service's
 * module in process: it reads its configuration from there; `undefined`
 * unsets a variable) and returns what puts every one of them back as it was,
 * unset ones unset.
 */
export function setProcessEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.keys(values).map((name) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
