// @hey-api/openapi-ts: the TypeScript client, from the document named by OPENAPI_DOCUMENT into
// OPENAPI_TS_OUTPUT (scripts/generate-clients.sh sets both).
export default {
  input: process.env.OPENAPI_DOCUMENT,
  output: { path: process.env.OPENAPI_TS_OUTPUT, clean: true },
  plugins: [
    // The fetch client is written into the output: the generated client needs no runtime package
    // but zod.
    '@hey-api/client-fetch',
    '@hey-api/typescript',
    'zod',
    // Every answer is checked against the document at run time (zod). Requests are not: the server
    // is the judge of its input, and says which field is wrong.
    { name: '@hey-api/sdk', validator: { response: 'zod' } },
  ],
  logs: { level: 'warn', file: false },
};
