import { Injectable, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { AuditTrail } from './audit-trail.js';
import { callerOf } from './caller.js';
import { ACCESS_RULE } from './requires.decorator.js';
import type { AccessRule } from './requires.decorator.js';

interface AuditedRoute {
  readonly method: string;
  /** The route's path as a pattern; its `:id` is the first group. */
  readonly path: RegExp;
  readonly action: string;
}

/**
 * The routes the audit trail records (those a `@Requires(scope, action)` names), read from the
 * controllers once the app is built, and the middleware that follows every request to one of them
 * from before the rate limits: a write refused by the limits (429), by the access guard (401, 403) or
 * by the handler is recorded as well as one done.
 */
@Injectable()
export class AuditedRoutes implements OnModuleInit {
  private routes: readonly AuditedRoute[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly trail: AuditTrail,
  ) {}

  onModuleInit(): void {
    const routes: AuditedRoute[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (!type) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
      for (const name of Object.getOwnPropertyNames(type.prototype)) {
        const handler = (type.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function') continue;
        const rule = Reflect.getMetadata(ACCESS_RULE, handler) as AccessRule | undefined;
        if (rule?.audit === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const path = [base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].join('/').replace(/\/+/g, '/').replace(/\/$/, '');
        routes.push({ method, path: routePattern(path.startsWith('/') ? path : `/${path}`), action: rule.audit });
      }
    }
    this.routes = routes;
  }

  /** Express middleware: a request to an audited route is recorded when its answer has gone. */
  follow() {
    return (request: Request, response: Response, next: NextFunction): void => {
      const route = this.routes.find((candidate) => candidate.method === request.method && candidate.path.test(request.path));
      if (route) this.trail.follow(request, response, route.action, () => callerOf(request), route.path.exec(request.path)?.[1]);
      next();
    };
  }
}

/** `/games/:id/reindex` as a pattern matching its paths, `:id` captured. */
function routePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}
