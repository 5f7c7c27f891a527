import Fastify from 'fastify';

/**
 * The baseline of `pnpm bench:api`: bare Fastify in a process of its own, answering every GET
 * with the JSON body it was given (a real PublicSwap), so the ratio compares like with like.
 * Prints its port once listening.
 */
const body: unknown = JSON.parse(process.argv[2]!);
const app = Fastify({ logger: false });
app.get('/*', async () => body);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${new URL(address).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
