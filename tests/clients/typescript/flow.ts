/**
 * The quickstart as a TypeScript developer writes it with the generated client, unedited: create a
 * course with only a subject, poll its job to completion, read the course, export it in every format
 * and download each package. Every answer is checked against the document by the client itself (zod).
 *
 * Each step is one thing a client does. An endpoint that lands joins the flow here, as a step, and
 * records its call (`state.calls`): the error tests replay that call with a wrong key, an unpaid
 * plan, and so on (tests/clients/test_generated_clients.py).
 */
import { createHash } from 'node:crypto';

import { client } from '../../../build/clients/typescript/client.gen';
import { createCourse, exportCourse, pollJob } from '../../../build/clients/typescript/sdk.gen';
import type {
  CourseOutput,
  ErrorBody,
  ExportFormatEnum,
  JobAccepted,
  JobOutput,
} from '../../../build/clients/typescript/types.gen';
import { zExportFormatEnum } from '../../../build/clients/typescript/zod.gen';

/** A successful call, as the error tests replay it. */
export interface Call {
  operation: string;
  path?: Record<string, string>;
  body?: unknown;
}

export interface DownloadedExport {
  format: ExportFormatEnum;
  downloadUrl: string;
  exportedAt: string;
  contentType: string | null;
  bytes: number;
  sha256: string;
}

export interface FlowState {
  accepted?: JobAccepted;
  job?: JobOutput;
  course?: CourseOutput;
  polls: number;
  exports: DownloadedExport[];
  calls: Call[];
}

type Step = (state: FlowState) => Promise<void>;

export class ApiError extends Error {
  constructor(operation: string, status: number, error: ErrorBody) {
    super(`${operation}: ${status} ${error.code}: ${error.message}`);
  }
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

const create: Step = async (state) => {
  const body = { subject: 'Intro to SQL' };
  const { data, error, response } = await createCourse({ body });
  if (error) throw new ApiError('createCourse', response.status, error);
  state.calls.push({ operation: 'createCourse', body });
  state.accepted = data;
};

const pollToCompletion: Step = async (state) => {
  const jobId = state.accepted!.jobId;
  for (;;) {
    const { data, error, response } = await pollJob({ path: { job_id: jobId } });
    if (error) throw new ApiError('pollJob', response.status, error);
    state.polls += 1;
    if (state.polls === 1) state.calls.push({ operation: 'pollJob', path: { job_id: jobId } });
    if (data.status === 'failed') throw new Error(`job ${jobId} failed: ${data.error?.code}`);
    if (data.status === 'completed') {
      state.job = data;
      return;
    }
    // Unfinished jobs say when to ask again.
    await sleep(Number(response.headers.get('Retry-After') ?? '5'));
  }
};

const readCourse: Step = async (state) => {
  const course = state.job!.course;
  if (course === null) throw new Error('a completed job without its course');
  state.course = course;
};

const exportAndDownloadEachFormat: Step = async (state) => {
  const courseId = state.course!.id;
  for (const format of zExportFormatEnum.options) {
    const body = { format };
    const { data, error, response } = await exportCourse({ path: { course_id: courseId }, body });
    if (error) throw new ApiError('exportCourse', response.status, error);
    state.calls.push({ operation: 'exportCourse', path: { course_id: courseId }, body });
    // The link needs no key: a plain GET, as any HTTP client or a browser would send it.
    const download = await fetch(data.downloadUrl);
    if (!download.ok) throw new Error(`GET ${data.downloadUrl}: ${download.status}`);
    const bytes = Buffer.from(await download.arrayBuffer());
    state.exports.push({
      format: data.format,
      downloadUrl: data.downloadUrl,
      exportedAt: data.exportedAt,
      contentType: download.headers.get('Content-Type'),
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
};

export const steps: Step[] = [create, pollToCompletion, readCourse, exportAndDownloadEachFormat];

export async function runFlow(baseUrl: string, apiKey: string): Promise<FlowState> {
  client.setConfig({ baseUrl, auth: apiKey });
  const state: FlowState = { polls: 0, exports: [], calls: [] };
  for (const step of steps) await step(state);
  return state;
}
