import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PublicSwapSchema } from '../schemas/swaps';
import { DashboardErrorSchema } from './errors';
import {
  ChangePasswordBodySchema,
  CreatedKeySchema,
  CreateKeyBodySchema,
  CsrfHeadersSchema,
  DashboardKeySchema,
  DashboardSwapPageSchema,
  DashboardSwapsQuerySchema,
  DeliveryIdParamsSchema,
  FaceDetectionSchema,
  FaceDetectParamsSchema,
  InviteParamsSchema,
  KeyIdParamsSchema,
  OverviewSchema,
  PreviewParamsSchema,
  SessionSchema,
  SetPasswordBodySchema,
  SignInBodySchema,
  SwapDetailSchema,
  SwapIdParamsSchema,
} from './schemas';

const c = initContract();

export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_API_PREFIX = `${DASHBOARD_PATH}/api`;
export const CSRF_HEADER = 'x-csrf-token';

const errors = {
  400: DashboardErrorSchema,
  401: DashboardErrorSchema,
  403: DashboardErrorSchema,
  404: DashboardErrorSchema,
  429: DashboardErrorSchema,
  500: DashboardErrorSchema,
} as const;

/** Every POST carries a JSON body (the server refuses any other), even one with nothing to say. */
const EmptyBodySchema = z.object({}).strict();

const image = c.otherResponse({ contentType: 'image/jpeg', body: c.type<Uint8Array>() });

/**
 * The dashboard's own endpoints, for its browser client only: session-cookie authentication,
 * CSRF token on every state change. Not part of the public v1 API or its OpenAPI document.
 */
export const dashboardContract = c.router(
  {
    getSession: { method: 'GET', path: '/session', responses: { 200: SessionSchema, ...errors }, summary: 'The signed-in user' },
    signIn: { method: 'POST', path: '/session', body: SignInBodySchema, responses: { 200: SessionSchema, ...errors }, summary: 'Sign in' },
    signOut: {
      method: 'DELETE',
      path: '/session',
      headers: CsrfHeadersSchema,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
      summary: 'Sign out: the session is revoked',
    },
    acceptInvite: {
      method: 'POST',
      path: '/invites/:token',
      pathParams: InviteParamsSchema,
      body: SetPasswordBodySchema,
      responses: { 200: SessionSchema, 410: DashboardErrorSchema, ...errors },
      summary: 'Set a password with a one-time link and sign in',
    },
    changePassword: {
      method: 'POST',
      path: '/account/password',
      headers: CsrfHeadersSchema,
      body: ChangePasswordBodySchema,
      responses: { 200: SessionSchema, ...errors },
      summary: 'Change the password: every other session is revoked',
    },
    overview: { method: 'GET', path: '/overview', responses: { 200: OverviewSchema, ...errors }, summary: 'Credits, budgets, usage' },
    listKeys: {
      method: 'GET',
      path: '/keys',
      responses: { 200: z.object({ data: z.array(DashboardKeySchema) }), ...errors },
      summary: "The user's API keys",
    },
    createKey: {
      method: 'POST',
      path: '/keys',
      headers: CsrfHeadersSchema,
      body: CreateKeyBodySchema,
      responses: { 201: CreatedKeySchema, ...errors },
      summary: 'Create an API key; the full key is in this response only',
    },
    revokeKey: {
      method: 'DELETE',
      path: '/keys/:keyId',
      pathParams: KeyIdParamsSchema,
      headers: CsrfHeadersSchema,
      body: c.noBody(),
      responses: { 200: DashboardKeySchema, ...errors },
      summary: 'Revoke an API key',
    },
    listSwaps: {
      method: 'GET',
      path: '/swaps',
      query: DashboardSwapsQuerySchema,
      responses: { 200: DashboardSwapPageSchema, ...errors },
      summary: "The user's swaps, newest first",
    },
    getSwap: {
      method: 'GET',
      path: '/swaps/:swapId',
      pathParams: SwapIdParamsSchema,
      responses: { 200: SwapDetailSchema, ...errors },
      summary: 'A swap with its previews and webhook deliveries',
    },
    swapPreview: {
      method: 'GET',
      path: '/swaps/:swapId/previews/:role/:index',
      pathParams: PreviewParamsSchema,
      responses: { 200: image, ...errors },
      summary: 'A thumbnail of an input or the result, made by the server',
    },
    cancelSwap: {
      method: 'POST',
      path: '/swaps/:swapId/cancel',
      pathParams: SwapIdParamsSchema,
      headers: CsrfHeadersSchema,
      body: EmptyBodySchema,
      responses: { 200: PublicSwapSchema, ...errors },
      summary: 'Cancel a queued or preparing swap',
    },
    resendDelivery: {
      method: 'POST',
      path: '/deliveries/:deliveryId/resend',
      pathParams: DeliveryIdParamsSchema,
      headers: CsrfHeadersSchema,
      body: EmptyBodySchema,
      responses: { 202: z.object({ queued: z.literal(true) }), ...errors },
      summary: 'Queue one more attempt of a webhook event',
    },
    listFaceDetections: {
      method: 'GET',
      path: '/face-detect',
      responses: { 200: z.object({ data: z.array(FaceDetectionSchema) }), ...errors },
      summary: "The user's latest face detections",
    },
    faceDetectPreview: {
      method: 'GET',
      path: '/face-detect/:taskId/preview',
      pathParams: FaceDetectParamsSchema,
      responses: { 200: image, ...errors },
      summary: 'The image with the detected faces outlined, made by the server',
    },
  },
  { pathPrefix: DASHBOARD_API_PREFIX, strictStatusCodes: true },
);

export type DashboardContract = typeof dashboardContract;
