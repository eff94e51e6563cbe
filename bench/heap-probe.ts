/**
 * Preloaded into a benchmarked process (`node --expose-gc --import bench/heap-probe.ts <bundle>`):
 * every HEAP_PROBE_EVERY_MS it runs a full collection and writes to stderr what the heap still
 * holds then, `bench-heap <Date.now()> <bytes>`. What survives a full collection is what the
 * process keeps; a leak is that figure climbing with the polls (bench/memory.ts).
 */
import { writeSync } from 'node:fs';

const HEAP_PROBE_EVERY_MS = 250;
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('bench/heap-probe.ts needs node --expose-gc');

setInterval(() => {
  collect();
  writeSync(2, `bench-heap ${Date.now()} ${process.memoryUsage().heapUsed}\n`);
}, HEAP_PROBE_EVERY_MS).unref();
