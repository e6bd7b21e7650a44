import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Nest's Express adapter, but its HTTP server builds every request and response with Express's own
 * prototypes from the start. Express 5 otherwise re-prototypes both on each request
 * (`Object.setPrototypeOf` in `app.handle`), and objects re-prototyped that way kept everything a
 * request allocated alive through young-generation collections: each collection promoted 1–3 MB of
 * dead requests (about 9 kB per request, even a 404) to the old generation, to be copied there and
 * collected by a full collection later. Already of the right prototype, the call changes nothing.
 */
export class ExpressServerAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections)
      throw new Error('ExpressServerAdapter serves plain HTTP only: no httpsOptions, no forceCloseConnections.');
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: constructorWith<typeof IncomingMessage>(IncomingMessage as unknown as Initializer, app.request),
        ServerResponse: constructorWith<typeof ServerResponse>(ServerResponse as unknown as Initializer, app.response),
      },
      app,
    );
  }
}

/** Node's own constructors are plain functions: callable on an instance made with another prototype. */
type Initializer = (this: unknown, ...args: unknown[]) => void;

/** A constructor doing what `base` does, its instances made with `prototype`. */
function constructorWith<T>(base: Initializer, prototype: object): T {
  function Constructor(this: unknown, ...args: unknown[]) {
    base.apply(this, args);
  }
  Constructor.prototype = prototype;
  return Constructor as unknown as T;
}
