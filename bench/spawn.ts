/**
 * Runs a bundled action as a child process the way the runner does (inputs as INPUT_* variables,
 * output and summary files, a clean environment), and notes when it started and ended on the
 * same clock as the emulator's real clock (Date.now), so that the two can be compared.
 *
 * The environment is made here rather than by test/support/run-action.ts so that everything
 * slow (a temporary folder, files) happens before the start time is taken.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runnerEnvironment } from '../test/support/run-action.ts';

export interface ChildRun {
  /** Date.now() just before spawn(). */
  startedAt: number;
  /** Date.now() when the process ended (its 'exit' event, before its pipes are drained). */
  exitedAt: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set (VmHWM) in bytes, when sampled; undefined where /proc is missing. */
  peakRssBytes?: number;
  /** Largest anonymous resident memory (RssAnon) seen by the sampler, in bytes. */
  peakAnonBytes?: number;
  /** Every sample of the resident set (VmRSS), with its Date.now() time. */
  rssTimeline?: RssSample[];
}

export interface RssSample {
  at: number;
  rssBytes: number;
  /** RssAnon at that moment: the resident set without file-backed pages (the node binary's). */
  anonBytes: number;
  /** VmHWM at that moment: the peak of the resident set so far. */
  hwmBytes?: number;
}

export interface ChildOptions {
  inputs: Record<string, string>;
  /** Runner variables to add or replace (e.g. a pull request event). */
  env?: Record<string, string>;
  /** Arguments to node: the bundle's path, or e.g. ['-e', script]. */
  args: string[];
  /** Sample the child's memory from /proc every this many ms. */
  sampleMemoryEveryMs?: number;
  /** A run that takes longer is killed: a hang must not stall the benchmark. */
  killAfterMs?: number;
}

interface MemorySample {
  /** VmHWM: the kernel's own high-water mark of the resident set. */
  hwm: number;
  /** RssAnon now: heaps and buffers, without file-backed pages such as the node binary's. */
  anon: number;
  /** VmRSS: the resident set now. */
  rss: number;
}

/** Memory of a live process, in bytes; undefined when it cannot be read (ended, no /proc). */
export async function memoryOf(pid: number): Promise<MemorySample | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]);
    const sample = { hwm: kb('VmHWM') * 1024, anon: kb('RssAnon') * 1024, rss: kb('VmRSS') * 1024 };
    return Object.values(sample).every(Number.isFinite) ? sample : undefined;
  } catch {
    return undefined;
  }
}

/** Polls /proc until stopped; keeps the largest values seen, and the resident set over time. */
function sampleMemory(child: ChildProcess, everyMs: number) {
  let peak: MemorySample | undefined;
  const timeline: RssSample[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped && child.pid !== undefined) {
      const sample = await memoryOf(child.pid);
      if (sample) {
        timeline.push({
          at: Date.now(),
          rssBytes: sample.rss,
          anonBytes: sample.anon,
          hwmBytes: sample.hwm,
        });
        peak = {
          hwm: Math.max(peak?.hwm ?? 0, sample.hwm),
          anon: Math.max(peak?.anon ?? 0, sample.anon),
          rss: sample.rss,
        };
      }
      await new Promise((wake) => setTimeout(wake, everyMs));
    }
  })();
  return {
    async stop(): Promise<{ peak: MemorySample; timeline: RssSample[] } | undefined> {
      stopped = true;
      await loop;
      return peak === undefined ? undefined : { peak, timeline };
    },
  };
}

export async function runChild(options: ChildOptions): Promise<ChildRun> {
  const dir = await mkdtemp(join(tmpdir(), 'deploy-action-bench-'));
  try {
    const { env } = await runnerEnvironment(dir, options.inputs, options.env);
    const startedAt = Date.now();
    const child = spawn(process.execPath, options.args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler =
      options.sampleMemoryEveryMs === undefined
        ? undefined
        : sampleMemory(child, options.sampleMemoryEveryMs);
    const killTimer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const ended = new Promise<{ exitedAt: number; exitCode: number | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode) => resolve({ exitedAt: Date.now(), exitCode }));
    });
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const { exitedAt, exitCode } = await ended;
    clearTimeout(killTimer);
    const sampled = await sampler?.stop();
    await closed;
    return {
      startedAt,
      exitedAt,
      exitCode,
      stdout,
      stderr,
      ...(sampled === undefined
        ? {}
        : {
            peakRssBytes: sampled.peak.hwm,
            peakAnonBytes: sampled.peak.anon,
            rssTimeline: sampled.timeline,
          }),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
