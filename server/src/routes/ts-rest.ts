import { initServer } from '@ts-rest/fastify';

/** The ts-rest server builder every route handler is typed with. */
export const tsRest = initServer();
