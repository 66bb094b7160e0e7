// The physical baseline over stdio: a bare newline-delimited JSON-RPC responder that answers
// initialize and tools/call echo. The replies to one input chunk go out in one write.
const reply = (msg) => {
  const result =
    msg.method === 'tools/call'
      ? { content: [{ type: 'text', text: msg.params.arguments.text }] }
      : msg.method === 'initialize'
        ? {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'bare', version: '1' },
          }
        : {};
  return JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }) + '\n';
};

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop();
  let out = '';
  for (const line of lines) {
    if (!line) continue;
    const msg = JSON.parse(line);
    if (msg.id !== undefined && msg.method !== undefined) out += reply(msg);
  }
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
