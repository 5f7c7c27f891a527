export { apiRole } from './api-role';
export { buildApp } from './app';
export type { AppDeps } from './http/deps';
