export { buildApp } from './app';
export type { AppDeps } from './http/deps';
