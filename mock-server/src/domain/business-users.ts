/**
 * Business users: created PENDING (control API) until they complete registration.
 * @module
 */
import type { BusinessUser, BusinessUserCreate } from 'card-issuing-sdk';
import { businessUserMachine, initialStatus, transition } from '../machines';
import type { BusinessUserRecord } from '../store';
import { emit, nowIso, type DomainContext } from './context';
import { ProblemError } from './errors';
import { businessUserByEmail, findBusinessUser, registrationCompleted } from './lookups';
import { businessUserView } from './views';

/** Creates a business user, PENDING until registration completes (control API). */
export function createBusinessUser(ctx: DomainContext, body: BusinessUserCreate): BusinessUser {
  if (businessUserByEmail(ctx, body.email)) {
    throw new ProblemError('EMAIL_ALREADY_REGISTERED', `A business user with the e-mail ${body.email} already exists.`);
  }
  const user: BusinessUserRecord = {
    userUuid: ctx.rng.uuid(),
    name: body.name,
    lastName: body.lastName,
    email: body.email,
    phone: body.phone,
    registrationStatus: initialStatus(businessUserMachine, 'createBusinessUser'),
    createdAt: nowIso(ctx),
    registeredAt: null,
  };
  ctx.state.businessUsers[user.userUuid] = user;
  emit(ctx, { type: 'user.registered', at: user.createdAt, userId: user.userUuid, area: 'business' });
  return businessUserView(user);
}

/**
 * The business user finishes registration (control API). Their ACCEPTED approvals fall due at this instant (the
 * table's registration rows); the caller settles, so they move on before anything else is answered.
 */
export function completeRegistration(ctx: DomainContext, userUuid: string): BusinessUser {
  const user = findBusinessUser(ctx, userUuid);
  user.registrationStatus = transition(businessUserMachine, user.registrationStatus, 'completeRegistration');
  user.registeredAt = nowIso(ctx);
  registrationCompleted(ctx, userUuid);
  emit(ctx, { type: 'user.registrationCompleted', at: nowIso(ctx), userId: user.userUuid, area: 'business' });
  return businessUserView(user);
}
