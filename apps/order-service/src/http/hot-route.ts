import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject, PathItemObject } from '@nestjs/swagger';
import { RUN_TOKEN_HEADER } from '@oversell/contracts';
import type { FastifyRequest } from 'fastify';
import { ORDER_BODY_SCHEMA } from './order-body';

/**
 * A route every load request takes (an order, the no-op ceiling), served by Fastify itself rather than
 * by a Nest controller: Nest's router, its ValidationPipe and class-validator cost an instance about
 * 40 % of its CPU per no-op (docs/performance.md), more than some strategies' whole deduction. The
 * body is checked by a compiled JSON schema instead (order-body.ts). Everything else an answer gets is
 * the same as a controller's: the security headers, the Host check and the request logger are
 * instance-wide hooks, and a thrown error reaches Nest's exception filter through Fastify's error
 * handler, which Nest installs.
 */
export interface HotRoute {
  path: string;
  /** Registers the route on the app's Fastify instance, its services taken from Nest's container. */
  serve(app: NestFastifyApplication): void;
  /** Its entry in the OpenAPI document, which Nest builds from controllers only. */
  openApi: PathItemObject;
}

export function serveHotRoutes(app: NestFastifyApplication, routes: readonly HotRoute[]): void {
  for (const route of routes) route.serve(app);
}

/** The order body's schema in the OpenAPI document's components, under the contract's name for it. */
const ORDER_BODY_NAME = 'CreateOrderRequest';

/** The hot routes' entries in the document, and the body schema they name (as Nest names a DTO's). */
export function documentHotRoutes(document: OpenAPIObject, routes: readonly HotRoute[]): void {
  for (const route of routes) document.paths[route.path] = route.openApi;
  document.components = { ...document.components, schemas: { ...document.components?.schemas, [ORDER_BODY_NAME]: ORDER_BODY_SCHEMA as object } };
}

/** A hot route's OpenAPI entry: a POST of an order's body, with the run-token header that counts it in a run. */
export function orderBodyPost(doc: { operationId: string; tag: string; summary: string; runToken: string; responses: Record<number, string> }): PathItemObject {
  return {
    post: {
      operationId: doc.operationId,
      tags: [doc.tag],
      summary: doc.summary,
      parameters: [{ name: RUN_TOKEN_HEADER, in: 'header', required: false, schema: { type: 'string' }, description: doc.runToken }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${ORDER_BODY_NAME}` }, example: { productId: 42, quantity: 1, strategy: 'lua-decrement' } } },
      },
      responses: Object.fromEntries(Object.entries(doc.responses).map(([status, description]) => [status, { description }])),
    },
  };
}

/** The run token a load request carries, if any. (A repeated header arrives joined with ", ", which no token's shape matches.) */
export function runTokenOf(request: FastifyRequest): string | undefined {
  const token = request.headers[RUN_TOKEN_HEADER];
  return typeof token === 'string' ? token : undefined;
}
