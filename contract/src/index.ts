export * from './errors';
export * from './router';
export * from './schemas/account';
export * from './schemas/face-detect';
export * from './schemas/ids';
export * from './schemas/swaps';
export * from './schemas/url';
export * from './schemas/webhook';
