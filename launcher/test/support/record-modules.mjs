// Loaded with `--import` (NODE_OPTIONS): appends the URL of every module this process loads, one
// a line, to the file DOPPEL_TEST_MODULE_LOG names, so a test can tell what a role brought in.
import { register } from 'node:module';
import process from 'node:process';

register('./record-modules-hooks.mjs', import.meta.url, { data: { file: process.env.DOPPEL_TEST_MODULE_LOG } });
