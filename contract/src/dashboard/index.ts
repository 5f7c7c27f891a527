export * from './errors';
export * from './router';
export * from './schemas';
