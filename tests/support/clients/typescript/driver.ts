/**
 * The generated TypeScript client, driven by the tests over stdin and stdout, one JSON command a line
 * and one JSON answer a line:
 *
 * - `{"cmd": "flow", "baseUrl", "apiKey"}`: run the quickstart flow (flow.ts); answers its state.
 * - `{"cmd": "call", "baseUrl", "apiKey", "operation", "path", "query", "body", "headers", "schema"}`:
 *   call one operation by its operationId; answers the status and the answer parsed with the zod
 *   schema of that name from the document (answers of 2xx are checked by the client itself). A body
 *   value `{"fileName", "text"}` is a file: the body then goes as multipart/form-data (`uploadOptions`).
 * - `{"cmd": "parse", "schema", "json"}`: parse a text (a webhook's body) with that schema.
 *
 * Failures answer `{"ok": false, "error": ...}`.
 */
import * as readline from 'node:readline';

import type { ZodType } from 'zod';

import { client } from '../../../../build/clients/typescript/client.gen';
import * as sdk from '../../../../build/clients/typescript/sdk.gen';
import * as schemas from '../../../../build/clients/typescript/zod.gen';
import { runFlow, uploadOptions } from './flow';

interface FileValue {
  fileName: string;
  text: string;
}

const isFile = (value: unknown): value is FileValue =>
  typeof value === 'object' && value !== null && 'fileName' in value && 'text' in value;

const hasFile = (body: Record<string, unknown>) => Object.values(body).some(isFile);

/** The body with each file value made a File. */
const withFiles = (body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, isFile(value) ? new File([value.text], value.fileName) : value]),
  );

type Command =
  | { cmd: 'flow'; baseUrl: string; apiKey: string }
  | {
      cmd: 'call';
      baseUrl: string;
      apiKey: string | null;
      operation: string;
      path?: Record<string, string | number>;
      query?: Record<string, string | number | boolean>;
      body?: Record<string, unknown>;
      headers?: Record<string, string>;
      schema: string | null;
    }
  | { cmd: 'parse'; schema: string; json: string };

type Operation = (options: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function schemaNamed(name: string): ZodType {
  const schema = (schemas as unknown as Record<string, ZodType | undefined>)[`z${name}`];
  if (schema === undefined) throw new Error(`no schema ${name} in the generated client`);
  return schema;
}

async function run(command: Command): Promise<object> {
  switch (command.cmd) {
    case 'flow':
      return { state: await runFlow(command.baseUrl, command.apiKey) };
    case 'call': {
      const operation = (sdk as unknown as Record<string, Operation | undefined>)[command.operation];
      if (operation === undefined) throw new Error(`no operation ${command.operation} in the generated client`);
      client.setConfig({ baseUrl: command.baseUrl });
      // Only what the command gives: a GET with a body, even an empty one, is refused by fetch.
      const options: Record<string, unknown> = {};
      if (command.apiKey !== null) options.auth = command.apiKey;
      if (command.path) options.path = command.path;
      if (command.query) options.query = command.query;
      if (command.headers) options.headers = command.headers;
      if (command.body !== undefined && command.body !== null) {
        if (hasFile(command.body)) {
          const upload = uploadOptions(withFiles(command.body));
          options.body = upload.body;
          options.bodySerializer = upload.bodySerializer;
          options.headers = { ...upload.headers, ...command.headers };
        } else {
          options.body = command.body;
        }
      }
      const { data, error, response } = await operation(options);
      const answer = error ?? data;
      const result = command.schema === null ? { success: true as const, data: answer } : schemaNamed(command.schema).safeParse(answer);
      if (!result.success) {
        throw new Error(`${response.status} ${JSON.stringify(answer)} is no ${command.schema}: ${result.error.message}`);
      }
      const parsed = result.data;
      return { status: response.status, parsed, headers: Object.fromEntries(response.headers) };
    }
    case 'parse':
      return { parsed: schemaNamed(command.schema).parse(JSON.parse(command.json)) };
  }
}

async function main(): Promise<void> {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    let answer: object;
    try {
      answer = { ok: true, ...(await run(JSON.parse(line) as Command)) };
    } catch (exc) {
      answer = { ok: false, error: exc instanceof Error ? `${exc.name}: ${exc.message}` : String(exc) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
}

void main();
