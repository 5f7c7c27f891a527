import { contract } from '@doppel/contract';
import { ApiError } from '../errors';
import { tsRest } from './ts-rest';

export const createFaceDetect = tsRest.route(contract.createFaceDetect, async () => {
  throw new ApiError('api_temporarily_disabled', 'Task creation is not available yet.');
});
