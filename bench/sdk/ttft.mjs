// Time to first token of the official openai SDK: N sequential streaming chat completions with
// the same prompt, in this one process, with one client and the SDK's default keep-alive (as
// `headstart-cli chat --repeat N` keeps its connection). One JSON line per request on stdout:
//   {"ttft_ms": 1.234, "new_connection": false}
// ttft_ms is measured with process.hrtime.bigint() from just before create() to the first chunk
// whose choices[0].delta.content is non-empty; each stream is then drained before the next
// request. new_connection: whether Node's HTTP client (undici, behind fetch) opened a connection
// for this request, seen on its diagnostics channel. The SDK ends a stream at `data: [DONE]` by
// cancelling the response body; when the chunked body's last chunk has not been read by then,
// undici closes the connection and the next request opens a new one.
//
//   node ttft.mjs --base-url http://127.0.0.1:43117/ [--n 40] [--max-tokens 16] [--prompt TEXT]
//                 [--model headstart-local]
//
// --base-url takes the root URL headstart-localprovider prints (like headstart-cli's
// --base-url for --provider local); "v1" is appended unless the path already ends in /v1.
// Used by bench/sdk/run; see docs/benchmarks.md.
import diagnosticsChannel from 'node:diagnostics_channel';
import OpenAI from 'openai';

function parseArgs(argv) {
  const options = {
    baseUrl: null,
    n: 40,
    maxTokens: 16,
    prompt: 'Explain prompt caching in two sentences.',
    model: 'headstart-local',
  };
  const names = { '--base-url': 'baseUrl', '--n': 'n', '--max-tokens': 'maxTokens', '--prompt': 'prompt', '--model': 'model' };
  for (let i = 0; i < argv.length; ++i) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: node ttft.mjs --base-url URL [--n N] [--max-tokens N] [--prompt TEXT] [--model NAME]\n');
      process.exit(0);
    }
    const key = names[arg];
    if (!key) fail(`unknown argument '${arg}'`);
    if (value === undefined) {
      if (i + 1 >= argv.length) fail(`${arg} needs a value`);
      value = argv[++i];
    }
    options[key] = value;
  }
  if (!options.baseUrl) fail('--base-url is required');
  for (const key of ['n', 'maxTokens']) {
    const v = Number(options[key]);
    if (!Number.isInteger(v) || v <= 0) fail(`--${key === 'n' ? 'n' : 'max-tokens'} needs a positive integer`);
    options[key] = v;
  }
  let url;
  try {
    url = new URL(options.baseUrl);
  } catch {
    fail('--base-url is not a URL');
  }
  if (!/\/v1\/?$/.test(url.pathname)) url.pathname = url.pathname.replace(/\/?$/, '/v1');
  options.baseUrl = url.toString().replace(/\/$/, '');
  return options;
}

function fail(message) {
  process.stderr.write(`ttft.mjs: ${message}\n`);
  process.exit(2);
}

const options = parseArgs(process.argv.slice(2));
// maxRetries 0: a failed request must fail the benchmark, not be retried inside the timing.
const client = new OpenAI({ baseURL: options.baseUrl, apiKey: 'local', maxRetries: 0 });
const messages = [{ role: 'user', content: options.prompt }];
let connections = 0;
diagnosticsChannel.subscribe('undici:client:connected', () => ++connections);

for (let i = 0; i < options.n; ++i) {
  const connectionsBefore = connections;
  const started = process.hrtime.bigint();
  const stream = await client.chat.completions.create({
    model: options.model,
    messages,
    max_tokens: options.maxTokens,
    stream: true,
    // headstart-cli asks for the usage chunk too; it comes after the last token, so it does
    // not change the time to first token, only keeps the two requests alike.
    stream_options: { include_usage: true },
  });
  let firstToken = null;
  for await (const chunk of stream) {
    if (firstToken === null && chunk.choices?.[0]?.delta?.content) firstToken = process.hrtime.bigint();
  }
  if (firstToken === null) {
    process.stderr.write(`ttft.mjs: request ${i + 1} ended without a content token\n`);
    process.exit(1);
  }
  const result = { ttft_ms: Number(firstToken - started) / 1e6, new_connection: connections > connectionsBefore };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
