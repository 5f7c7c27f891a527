// Entry of a compute thread. Threads are plain Node workers that know nothing of how the main
// thread loaded TypeScript (tsx, vitest, ...), so each registers tsx itself before loading the
// task functions.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./tasks.ts');

export default function runTask({ task, input }) {
  return tasks[task](input);
}
