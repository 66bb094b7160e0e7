/**
 * Matches URIs against an RFC 6570 template of the two forms resources use:
 * simple `{var}` (one path segment, percent-decoded) and reserved `{+var}`
 * (the rest, slashes included). Other operators are refused at registration.
 */
export class UriTemplate {
  readonly variables: string[] = [];
  private readonly pattern: RegExp;

  constructor(readonly template: string) {
    let source = '^';
    let last = 0;
    for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
      source += escapeRegExp(template.slice(last, match.index));
      const expression = match[1];
      const reserved = expression.startsWith('+');
      const name = reserved ? expression.slice(1) : expression;
      if (!/^[A-Za-z0-9_]+$/.test(name)) {
        throw new Error(`unsupported template expression {${expression}}`);
      }
      this.variables.push(name);
      source += reserved ? '(.+)' : '([^/?#]+)';
      last = match.index + match[0].length;
    }
    const rest = template.slice(last);
    if (/[{}]/.test(rest)) throw new Error('unbalanced braces');
    this.pattern = new RegExp(source + escapeRegExp(rest) + '$');
  }

  /** The variables `uri` binds, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined {
    const found = this.pattern.exec(uri);
    if (!found) return undefined;
    const variables: Record<string, string> = {};
    for (let i = 0; i < this.variables.length; i++) {
      try {
        variables[this.variables[i]] = decodeURIComponent(found[i + 1]);
      } catch {
        return undefined;
      }
    }
    return variables;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
