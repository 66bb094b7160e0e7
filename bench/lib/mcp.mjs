// The MCP messages the workloads send, prebuilt as strings where they are sent in a loop, and the
// checks that every answer is the right one (a bench that counts errors as calls proves nothing).
export const PROTOCOL_VERSION = '2025-11-25';

/** The 2026-07-28 era: no handshake, every request carries its own envelope. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function initializeLine(id, capabilities = {}) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities,
      clientInfo: { name: 'bench', version: '1' },
    },
  });
}

export const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

/** The capabilities of a client that can be asked for approval (form elicitation). */
export const ELICITING = { elicitation: { form: {} } };

/**
 * A tools/call the bench sends in a loop: `line(id)` is the request, `ok(message)` checks that
 * `message` is its successful answer (`name` and `args` are for the official client).
 */
function call(name, args, ok) {
  const tail = `,"method":"tools/call","params":${JSON.stringify({ name, arguments: args })}}`;
  return { name, args, line: (id) => `{"jsonrpc":"2.0","id":${id}${tail}`, ok };
}

/**
 * `call` sent in the 2026-07-28 era: the request envelope in `params._meta`, and `headers` (the
 * protocol version and the Mcp-Method / Mcp-Name routing headers) for every request; `ok` also
 * wants a complete result and no error.
 */
export function modernCall(call) {
  const params = { name: call.name, arguments: call.args, _meta: MODERN_META };
  const tail = `,"method":"tools/call","params":${JSON.stringify(params)}}`;
  return {
    ...call,
    line: (id) => `{"jsonrpc":"2.0","id":${id}${tail}`,
    headers: {
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': call.name,
    },
    ok: (message) =>
      message?.error === undefined &&
      message?.result?.resultType === 'complete' &&
      call.ok(message),
  };
}

/** The envelope of a modern request that can take a task: it declares the tasks extension. */
const TASKS_META = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};
const TASK_FIELDS = ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs'];

/**
 * `call` (of a tool declared `task: 'optional'`) sent as a task (SEP-2663): `line(id)` is the
 * tools/call, whose answer `created(message)` reads the new task's id from (undefined unless it is
 * a task in every field); `getLine(id, taskId)` is the tasks/get for it, with `getHeaders(taskId)`
 * (the task's id in `Mcp-Name`); `done(message, taskId)` says whether that answer is the finished task
 * carrying the call's own answer, and throws on any other than the same task still working.
 */
export function taskCall(call) {
  const params = { name: call.name, arguments: call.args, _meta: TASKS_META };
  const tail = `,"method":"tools/call","params":${JSON.stringify(params)}}`;
  const meta = JSON.stringify(TASKS_META);
  const version = { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION };
  return {
    ...call,
    line: (id) => `{"jsonrpc":"2.0","id":${id}${tail}`,
    headers: { ...version, 'mcp-method': 'tools/call', 'mcp-name': call.name },
    created: (message) => {
      const task = message?.result;
      const whole = task?.resultType === 'task' && TASK_FIELDS.every((key) => key in task);
      return whole && message.error === undefined ? task.taskId : undefined;
    },
    getLine: (id, taskId) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tasks/get","params":{"taskId":"${taskId}","_meta":${meta}}}`,
    getHeaders: (taskId) => ({ ...version, 'mcp-method': 'tasks/get', 'mcp-name': taskId }),
    done: (message, taskId) => {
      const task = message?.result?.taskId === taskId ? message.result : undefined;
      if (task?.status === 'working') return false;
      if (task?.status === 'completed' && call.ok({ result: task.result })) return true;
      throw new Error(`tasks/get of ${taskId} answered ${describe(message)}`);
    },
  };
}

const TEXT = 'hello';
const echoed = (message) =>
  message?.result?.content?.[0]?.text === TEXT && message.result.isError !== true;

/** `echo` (or `guarded_echo`): the answer must carry the text back. */
export const echoCall = (name = 'echo') => call(name, { text: TEXT }, echoed);

/**
 * `echo` with a new text on every call (`hello-<n>`, n counting up for the whole bench run, so
 * not even a server kept between measurements sees a text twice): no two requests a policy sees
 * are the same, so a decision cache never hits. The answer must carry a text of that form back.
 */
export function variedEchoCall(name = 'echo') {
  const ok = (message) =>
    (message?.result?.content?.[0]?.text ?? '').startsWith(`${TEXT}-`) &&
    message.result.isError !== true;
  const head = `,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":{"text":"${TEXT}-`;
  let n = 0;
  return {
    ...call(name, { text: TEXT }, ok),
    line: (id) => `{"jsonrpc":"2.0","id":${id}${head}${++n}"}}}`,
  };
}

/**
 * The notes service's `create_note`: a new note on every call (no idempotency key), answered
 * once it is committed. The answer must be the note, not an error result.
 */
export const createNoteCall = () =>
  call(
    'create_note',
    { title: 'bench note', body: TEXT, tags: ['bench'] },
    (m) => m?.result !== undefined && m.result.isError !== true,
  );

/** The notes service's search over an empty DATA_DIR: any successful result. */
export const searchNotesCall = () =>
  call(
    'search_notes',
    { query: TEXT },
    (m) => m?.result !== undefined && m.result.isError !== true,
  );

/**
 * The notes service's delete (its policy asks first) of a note that does not exist: once approved
 * the tool runs and reports the missing note; a denial would say `authorization_required`.
 */
export const deleteNoteCall = () =>
  call('delete_note', { id: 'missing' }, (m) =>
    /No note with id missing/.test(m?.result?.content?.[0]?.text ?? ''),
  );

/** The answer a user gives to the approval form: accept, approve. */
export function approvalLine(id) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { action: 'accept', content: { approve: true } },
  });
}

export function describe(message) {
  const text = JSON.stringify(message);
  return text && text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
