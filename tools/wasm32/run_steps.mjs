// Run MicroPython code on the 32-bit WebAssembly port, one runPython call per step (make bench).
//
// usage: node run_steps.mjs NODE_MODULES STEPS.json
//   STEPS.json: {"heap": bytes, "copy": [[host dir, dir in the port's filesystem], ...],
//                "path": [dir, ...], "argv": [str, ...], "steps": [python source, ...],
//                "async": false}
//   "path" goes ahead on sys.path and "argv" becomes sys.argv before the first step (the
//   steps are usually a file of tools/onboard cut into calls: mpy_tools.chunks).
//   With "async": true each step runs with runPythonAsync: it may `await` at the top level,
//   and the port's asyncio tasks (run by node's event loop) go on between and during steps.
//
// Why one call per step: this port collects garbage only once the call that made it has
// returned (within a call, 100 freed 1000-byte bytearrays still count as live after
// gc.collect()), so a live-heap figure is only true when it is taken in a call of its own.
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';

const [modules, stepsFile] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(stepsFile, 'utf8'));
const entry = path.join(modules, '@micropython', 'micropython-webassembly-pyscript',
  'micropython.mjs');
const { loadMicroPython } = await import(pathToFileURL(entry).href);
const mp = await loadMicroPython({
  heapsize: job.heap,
  stdout: (line) => process.stdout.write(line + '\n'),
  stderr: (line) => process.stderr.write(line + '\n'),
});

function copy(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const name of fs.readdirSync(src)) {
    const p = path.join(src, name);
    if (fs.statSync(p).isDirectory()) copy(p, dst + '/' + name);
    else mp.FS.writeFile(dst + '/' + name, fs.readFileSync(p));
  }
}
for (const [src, dst] of job.copy) copy(src, dst);
if (job.path || job.argv) {
  mp.runPython('import sys\nsys.path[:0] = ' + JSON.stringify(job.path || []) +
    '\nsys.argv[:] = ' + JSON.stringify(job.argv || []) + '\ndel sys\n');
}
for (const code of job.steps) {
  // The proxies of finished steps hold their Python objects until JavaScript's collector
  // runs (node --expose-gc): let it run, so a reading counts only what is live.
  if (globalThis.gc) { globalThis.gc(); await new Promise((r) => setTimeout(r, 0)); }
  try {
    if (job.async) await mp.runPythonAsync(code);
    else mp.runPython(code);
  } catch (e) {
    process.stderr.write(String(e) + '\n');
    process.exit(1);
  }
}
// The port's asyncio tasks would keep node's event loop (and the process) alive for ever.
if (job.async) process.exit(0);
