/**
 * The quickstart as a TypeScript developer writes it with the generated client, unedited: create a
 * course with only a subject, poll its job to completion, read the course, read its whole document,
 * edit it (a merge patch, then the whole document), have its introduction written again, read its
 * versions and its quality report, export it in every format and download each package, and revoke
 * one of the download links; send its learners' events to a receiver, add a learner with a personal
 * link, read the results as JSON and as CSV, erase the learner and stop the events; then add a source
 * by its URL (the course's own preview page), wait until it is read, build a course from it and read
 * its citations, list the sources, delete the source and read that course again (its citations stay,
 * the source marked deleted); last, make a second course and delete it. Every answer is checked
 * against the document by the client itself (zod).
 *
 * Each step is one thing a client does. An endpoint that lands joins the flow here, as a step, and
 * records its call (`state.calls`): the error tests replay that call with a wrong key, an unpaid
 * plan, and so on (tests/clients/test_generated_clients.py).
 */
import { createHash } from 'node:crypto';

import { formDataBodySerializer } from '../../../../build/clients/typescript/client';
import { client } from '../../../../build/clients/typescript/client.gen';
import {
  addLearner,
  createCourse,
  createSource,
  deleteCourse,
  deleteSource,
  downloadExport,
  eraseLearner,
  exportCourse,
  getCourseQuality,
  getSource,
  listCourseResults,
  listCourseVersions,
  listCourses,
  listJobs,
  listSources,
  patchCourseContent,
  pollJob,
  readCourse,
  readCourseVersion,
  regenerateCoursePart,
  replaceCourseContent,
  revokeExport,
  updateCourse,
} from '../../../../build/clients/typescript/sdk.gen';
import type {
  CourseDetailOutput,
  CourseOutput,
  CourseQualityOutput,
  ErasedOutput,
  ErrorBody,
  ExportFormatEnum,
  JobAccepted,
  JobOutput,
  LearnerOutput,
  ResultsOutput,
  SourceOutput,
} from '../../../../build/clients/typescript/types.gen';
import { zExportFormatEnum } from '../../../../build/clients/typescript/zod.gen';

/** A successful call, as the error tests replay it. */
export interface Call {
  operation: string;
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface DownloadedExport {
  exportId: string;
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
  /** The course's whole document, as last read or edited, and its ETag (the version). */
  document?: CourseDetailOutput;
  etag?: string;
  versions: number[];
  quality?: CourseQualityOutput;
  exports: DownloadedExport[];
  /** The course's learnerCallbackUrl, as each answer of updateCourse gave it. */
  learnerCallbackUrls: (string | null)[];
  learner?: LearnerOutput;
  results?: ResultsOutput;
  resultsCsv?: string;
  erased?: ErasedOutput;
  source?: SourceOutput;
  /** The export whose link was revoked. */
  revoked?: string;
  /** The course made to be deleted, and its job after. */
  deleted?: { courseId: string; job: JobOutput };
  /** The course built from the source, as last read. */
  sourcedCourse?: CourseDetailOutput;
  /** The ids of the key's courses and completed jobs, as listed. */
  listed?: { courses: string[]; jobs: string[] };
  calls: Call[];
}

type Step = (state: FlowState) => Promise<void>;

export class ApiError extends Error {
  constructor(operation: string, status: number, error: ErrorBody) {
    super(`${operation}: ${status} ${error.code}: ${error.message}`);
  }
}

// What every zip file starts with (a local file header).
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

const create: Step = async (state) => {
  const body = { subject: 'Intro to SQL' };
  const { data, error, response } = await createCourse({ body });
  if (error) throw new ApiError('createCourse', response.status, error);
  state.calls.push({ operation: 'createCourse', body });
  state.accepted = data;
};

const pollToCompletion: Step = async (state) => {
  state.job = await pollJobToCompletion(state, state.accepted!.jobId);
};

async function pollJobToCompletion(state: FlowState, jobId: string): Promise<JobOutput> {
  for (;;) {
    const { data, error, response } = await pollJob({ path: { job_id: jobId } });
    if (error) throw new ApiError('pollJob', response.status, error);
    state.polls += 1;
    if (state.polls === 1) state.calls.push({ operation: 'pollJob', path: { job_id: jobId } });
    if (data.status === 'failed') throw new Error(`job ${jobId} failed: ${data.error?.code}`);
    if (data.status === 'completed') return data;
    // Unfinished jobs say when to ask again.
    await sleep(Number(response.headers.get('Retry-After') ?? '5'));
  }
}

const takeCourseFromJob: Step = async (state) => {
  const course = state.job!.course;
  if (course === null) throw new Error('a completed job without its course');
  state.course = course;
};

async function fetchDocument(state: FlowState): Promise<void> {
  const path = { course_id: state.course!.id };
  const { data, error, response } = await readCourse({ path });
  if (error) throw new ApiError('readCourse', response.status, error);
  state.calls.push({ operation: 'readCourse', path });
  state.document = data;
  state.etag = response.headers.get('ETag')!;
}

const readDocument: Step = async (state) => {
  await fetchDocument(state);
  // Read again with the version in hand: nothing changed, so 304 and no body.
  const { response } = await readCourse({ path: { course_id: state.course!.id }, headers: { 'If-None-Match': state.etag } });
  if (response.status !== 304) throw new Error(`readCourse with If-None-Match: ${response.status}`);
};

const editIntroduction: Step = async (state) => {
  const path = { course_id: state.course!.id };
  const body = { introduction: INTRODUCTION };
  const headers = { 'If-Match': state.etag! };
  const { data, error, response } = await patchCourseContent({ path, body, headers });
  if (error) throw new ApiError('patchCourseContent', response.status, error);
  state.calls.push({ operation: 'patchCourseContent', path, body, headers });
  state.document = data;
  state.etag = response.headers.get('ETag')!;
};

const replaceDocument: Step = async (state) => {
  const path = { course_id: state.course!.id };
  const content = state.document!.content;
  const body = { ...content, introduction: `${content.introduction}\n\nEvery chapter ends with exercises.` };
  const headers = { 'If-Match': state.etag! };
  const { data, error, response } = await replaceCourseContent({ path, body, headers });
  if (error) throw new ApiError('replaceCourseContent', response.status, error);
  state.calls.push({ operation: 'replaceCourseContent', path, body, headers });
  state.document = data;
  state.etag = response.headers.get('ETag')!;
};

const regenerateIntroduction: Step = async (state) => {
  const path = { course_id: state.course!.id };
  const body = { target: 'introduction' as const, instructions: 'Open with a question.' };
  const { data, error, response } = await regenerateCoursePart({ path, body });
  if (error) throw new ApiError('regenerateCoursePart', response.status, error);
  state.calls.push({ operation: 'regenerateCoursePart', path, body });
  await pollJobToCompletion(state, data.jobId);
  await fetchDocument(state); // the new version
};

const readVersions: Step = async (state) => {
  const courseId = state.course!.id;
  const listed = await listCourseVersions({ path: { course_id: courseId } });
  if (listed.error) throw new ApiError('listCourseVersions', listed.response.status, listed.error);
  state.calls.push({ operation: 'listCourseVersions', path: { course_id: courseId } });
  state.versions = listed.data.versions.map((version) => version.version);
  const path = { course_id: courseId, number: state.versions[state.versions.length - 1] };
  const first = await readCourseVersion({ path });
  if (first.error) throw new ApiError('readCourseVersion', first.response.status, first.error);
  state.calls.push({ operation: 'readCourseVersion', path });
};

const readQuality: Step = async (state) => {
  const path = { course_id: state.course!.id };
  const { data, error, response } = await getCourseQuality({ path });
  if (error) throw new ApiError('getCourseQuality', response.status, error);
  state.calls.push({ operation: 'getCourseQuality', path });
  state.quality = data;
};

const exportAndDownloadEachFormat: Step = async (state) => {
  const courseId = state.course!.id;
  for (const format of zExportFormatEnum.options) {
    const body = { format };
    const { data, error, response } = await exportCourse({ path: { course_id: courseId }, body });
    if (error) throw new ApiError('exportCourse', response.status, error);
    state.calls.push({ operation: 'exportCourse', path: { course_id: courseId }, body });
    // The link needs no key: the generated function sends none (the operation has no security).
    const download = await downloadExport({ path: { export_id: data.exportId } });
    if (download.error !== undefined) throw new Error(`downloadExport: ${download.response.status}`);
    const bytes = Buffer.from(await download.data.arrayBuffer());
    if (!bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) throw new Error(`downloadExport: ${data.exportId} is no zip`);
    state.exports.push({
      exportId: data.exportId,
      format: data.format,
      downloadUrl: data.downloadUrl,
      exportedAt: data.exportedAt,
      contentType: download.response.headers.get('Content-Type'),
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
};

const revokeFirstExport: Step = async (state) => {
  const path = { course_id: state.course!.id, export_id: state.exports[0].exportId };
  const { error, response } = await revokeExport({ path });
  if (error) throw new ApiError('revokeExport', response.status, error);
  state.calls.push({ operation: 'revokeExport', path });
  const gone = await downloadExport({ path: { export_id: path.export_id } });
  if (gone.response.status !== 410) throw new Error(`a revoked download link answered ${gone.response.status}`);
  state.revoked = path.export_id;
};

async function changeCourseSettings(state: FlowState, learnerCallbackUrl: string | null): Promise<void> {
  const path = { course_id: state.course!.id };
  const body = { learnerCallbackUrl };
  const { data, error, response } = await updateCourse({ path, body });
  if (error) throw new ApiError('updateCourse', response.status, error);
  state.calls.push({ operation: 'updateCourse', path, body });
  state.learnerCallbackUrls.push(data.learnerCallbackUrl);
}

const sendLearnerEvents: Step = async (state) => {
  await changeCourseSettings(state, LEARNER_HOOK);
};

const addALearner: Step = async (state) => {
  const path = { course_id: state.course!.id };
  const body = { externalId: 'E-10442', name: 'Ada Lovelace' };
  const { data, error, response } = await addLearner({ path, body });
  if (error) throw new ApiError('addLearner', response.status, error);
  state.calls.push({ operation: 'addLearner', path, body });
  state.learner = data;
};

const readResults: Step = async (state) => {
  const path = { course_id: state.course!.id };
  const query = { completed: false, limit: 10 };
  const { data, error, response } = await listCourseResults({ path, query });
  if (error) throw new ApiError('listCourseResults', response.status, error);
  state.calls.push({ operation: 'listCourseResults', path, query });
  state.results = data;
  // The same rows as CSV: Accept: text/csv, and the answer taken as text (zod checks JSON answers).
  const csv = await listCourseResults({
    path,
    query: { completed: false },
    headers: { Accept: 'text/csv' },
    parseAs: 'text',
  });
  if (csv.error) throw new ApiError('listCourseResults', csv.response.status, csv.error);
  if (!csv.response.headers.get('Content-Type')?.startsWith('text/csv')) {
    throw new Error(`listCourseResults as CSV: ${csv.response.headers.get('Content-Type')}`);
  }
  // The generator types the answer by its JSON; asked as text, it is the CSV's text.
  state.resultsCsv = csv.data as unknown as string;
};

const eraseTheLearner: Step = async (state) => {
  const path = { course_id: state.course!.id, learner_id: state.learner!.learnerId };
  const { data, error, response } = await eraseLearner({ path });
  if (error) throw new ApiError('eraseLearner', response.status, error);
  state.calls.push({ operation: 'eraseLearner', path });
  state.erased = data;
};

const stopLearnerEvents: Step = async (state) => {
  await changeCourseSettings(state, null);
};

const addSourceByUrl: Step = async (state) => {
  const body = { url: state.course!.shareUrl, name: 'The course preview' };
  const { data, error, response } = await createSource({ body });
  if (error) throw new ApiError('createSource', response.status, error);
  state.calls.push({ operation: 'createSource', body });
  state.source = data;
};

const waitUntilRead: Step = async (state) => {
  const path = { source_id: state.source!.id };
  for (;;) {
    const { data, error, response } = await getSource({ path });
    if (error) throw new ApiError('getSource', response.status, error);
    state.calls.push({ operation: 'getSource', path });
    state.source = data;
    if (data.status === 'failed') throw new Error(`source ${data.id} failed: ${data.error?.code}`);
    if (data.status === 'ready') return;
    await sleep(Number(response.headers.get('Retry-After') ?? '5'));
  }
};

const buildCourseFromSource: Step = async (state) => {
  const body = {
    subject: 'What the course preview teaches',
    sources: [state.source!.id],
    addOns: ['assessment' as const],
  };
  const { data, error, response } = await createCourse({ body });
  if (error) throw new ApiError('createCourse', response.status, error);
  state.calls.push({ operation: 'createCourse', body });
  const job = await pollJobToCompletion(state, data.jobId);
  await readCourseFromSource(state, job.course!.id);
};

async function readCourseFromSource(state: FlowState, courseId: string): Promise<void> {
  const { data, error, response } = await readCourse({ path: { course_id: courseId } });
  if (error) throw new ApiError('readCourse', response.status, error);
  const content = data.content;
  const sourceId = state.source!.id;
  if (content.sources?.length !== 1 || content.sources[0].id !== sourceId) {
    throw new Error(`course ${courseId} does not list source ${sourceId}`);
  }
  // Every lesson and question says where it comes from: a passage of the source and its words.
  const cited = [
    ...content.chapters.flatMap((chapter) => chapter.lessons.map((lesson) => lesson.citations ?? [])),
    ...(content.assessment?.questions ?? []).map((question) => question.citations ?? []),
  ];
  if (cited.some((part) => part.length === 0 || part.some((citation) => citation.sourceId !== sourceId))) {
    throw new Error(`course ${courseId} has a part that cites nothing, or another source`);
  }
  state.sourcedCourse = data;
}

const readCourseAfterSourceDeleted: Step = async (state) => {
  await readCourseFromSource(state, state.sourcedCourse!.id);
  if (!state.sourcedCourse!.content.sources![0].deleted) {
    throw new Error('a deleted source is not marked deleted in the course built from it');
  }
};

const listAndDeleteSource: Step = async (state) => {
  const query = { limit: 10 };
  const listed = await listSources({ query });
  if (listed.error) throw new ApiError('listSources', listed.response.status, listed.error);
  state.calls.push({ operation: 'listSources', query });
  if (!listed.data.sources.some((source) => source.id === state.source!.id)) {
    throw new Error(`source ${state.source!.id} is not listed`);
  }
  const path = { source_id: state.source!.id };
  const { error, response } = await deleteSource({ path });
  if (error) throw new ApiError('deleteSource', response.status, error);
  state.calls.push({ operation: 'deleteSource', path });
};

const makeACourseAndDeleteIt: Step = async (state) => {
  const accepted = await createCourse({ body: { subject: 'A course to take down' } });
  if (accepted.error) throw new ApiError('createCourse', accepted.response.status, accepted.error);
  const made = await pollJobToCompletion(state, accepted.data.jobId);
  const path = { course_id: made.course!.id };
  const { error, response } = await deleteCourse({ path });
  if (error) throw new ApiError('deleteCourse', response.status, error);
  state.calls.push({ operation: 'deleteCourse', path });
  // The job stays, with its course gone.
  const job = await pollJob({ path: { job_id: accepted.data.jobId } });
  if (job.error) throw new ApiError('pollJob', job.response.status, job.error);
  state.deleted = { courseId: path.course_id, job: job.data };
};

/** What a client that lost its ids does: list its courses, a page of 2 at a time, and its completed jobs. */
const findCoursesAndJobsAgain: Step = async (state) => {
  const courses: string[] = [];
  let cursor: string | null = null;
  do {
    const query: { limit: number; cursor?: string } = cursor ? { limit: 2, cursor } : { limit: 2 };
    const page = await listCourses({ query });
    if (page.error) throw new ApiError('listCourses', page.response.status, page.error);
    if (cursor === null) state.calls.push({ operation: 'listCourses', query });
    courses.push(...page.data.courses.map((course) => course.id));
    cursor = page.data.nextCursor;
  } while (cursor !== null);
  const query = { status: 'completed' as const, limit: 100 };
  const jobs = await listJobs({ query });
  if (jobs.error) throw new ApiError('listJobs', jobs.response.status, jobs.error);
  state.calls.push({ operation: 'listJobs', query });
  state.listed = { courses, jobs: jobs.data.jobs.map((job) => job.jobId) };
};

/**
 * The options that send a body as multipart/form-data, for uploading a file to `createSource`. The
 * generator writes one kind of body per operation, JSON where JSON is one of them (a source by its
 * URL); an upload goes through these: `createSource({ ...uploadOptions({ file, name }) })`.
 */
export const uploadOptions = (body: Record<string, unknown>) => ({
  body,
  ...formDataBodySerializer,
  headers: { 'Content-Type': null },
});

const LEARNER_HOOK = 'https://hooks.example.com/learners/7f3a9c2e';
const INTRODUCTION = 'SQL lets you ask a database questions. This course starts from the first query.';

export const steps: Step[] = [
  create,
  pollToCompletion,
  takeCourseFromJob,
  readDocument,
  editIntroduction,
  replaceDocument,
  regenerateIntroduction,
  readVersions,
  readQuality,
  exportAndDownloadEachFormat,
  revokeFirstExport,
  sendLearnerEvents,
  addALearner,
  readResults,
  eraseTheLearner,
  stopLearnerEvents,
  addSourceByUrl,
  waitUntilRead,
  buildCourseFromSource,
  listAndDeleteSource,
  readCourseAfterSourceDeleted,
  makeACourseAndDeleteIt,
  findCoursesAndJobsAgain,
];

export async function runFlow(baseUrl: string, apiKey: string): Promise<FlowState> {
  client.setConfig({ baseUrl, auth: apiKey });
  const state: FlowState = { polls: 0, versions: [], exports: [], learnerCallbackUrls: [], calls: [] };
  for (const step of steps) await step(state);
  return state;
}
