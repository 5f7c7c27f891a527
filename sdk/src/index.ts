/** Node entry point (`@doppel/sdk`): everything in the web entry plus node:crypto webhook helpers. */
export * from './web';
export { verifyWebhook, generateTestSignatureHeader, type TestSignatureHeaderParams } from './webhooks/node';
