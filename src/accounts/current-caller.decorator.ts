import { createParamDecorator } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { callerOf } from './caller.js';

/** The handler's parameter holding who sent the request (src/accounts/caller.ts), as the access guard admitted it. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext) => callerOf(context.switchToHttp().getRequest<object>()));
