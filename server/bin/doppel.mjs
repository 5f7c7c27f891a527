#!/usr/bin/env node
// The CLI is TypeScript run as is: tsx's loader, registered in this process, compiles it on import.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
