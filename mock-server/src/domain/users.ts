/**
 * Server2Server users: registration and consents, e-mail OTP, KYC (control API), card configs.
 * @module
 */
import type { CardConfigList, Consent, EmailOtpChallenge, RegistrationData, User } from 'card-issuing-sdk';
import { iso } from '../clock';
import { MOCK_CURRENCY, type UserRecord } from '../store';
import { emit, nowIso, type DomainContext } from './context';
import { ProblemError, notFound, unprocessable } from './errors';
import { findUser, sendMessage, userByEmail } from './lookups';
import { paginate, type PageQuery } from './pagination';
import { cardConfigView, consentView, registrationStatus, userView } from './views';

/** An e-mail code is valid this long on the virtual clock. */
export const OTP_TTL_MS = 10 * 60 * 1000;
/** Tries per e-mail code. */
export const OTP_ATTEMPTS = 5;
/** Where the mock says the user passes KYC. */
export const KYC_URL = 'https://kyc.card-issuing.example/start';

/** Registers a user (registration consents unsigned) with one EUR balance of 0. */
export function createUser(ctx: DomainContext, data: RegistrationData): User {
  if (userByEmail(ctx, data.email)) {
    throw new ProblemError('EMAIL_ALREADY_REGISTERED', `A user with the e-mail ${data.email} is already registered.`);
  }
  const now = nowIso(ctx);
  const user: UserRecord = {
    id: ctx.rng.uuid(),
    email: data.email,
    firstName: data.firstName,
    lastName: data.lastName,
    phone: data.phone,
    dateOfBirth: data.dateOfBirth,
    country: data.country,
    signedConsents: {},
    emailVerified: false,
    kycStatus: 'NOT_STARTED',
    otp: null,
    createdAt: now,
  };
  ctx.state.users[user.id] = user;
  const balanceId = ctx.rng.uuid();
  ctx.state.balances[balanceId] = {
    id: balanceId,
    userId: user.id,
    currency: MOCK_CURRENCY,
    available: 0,
    updatedAt: now,
  };
  emit(ctx, { type: 'user.registered', at: now, userId: user.id, area: 's2s' });
  return userView(ctx.state, user);
}

/** A user. */
export function getUser(ctx: DomainContext, userId: string): User {
  return userView(ctx.state, findUser(ctx, userId));
}

/** Signs a consent of any kind for a user; signing a signed consent changes nothing. */
export function signConsent(ctx: DomainContext, userId: string, consentId: string): Consent {
  const user = findUser(ctx, userId);
  const consent = ctx.state.catalogue.consents.find((c) => c.id === consentId);
  if (!consent) throw notFound('consent', consentId);
  const before = registrationStatus(ctx.state, user);
  user.signedConsents[consent.id] ??= nowIso(ctx);
  if (before !== 'COMPLETED' && registrationStatus(ctx.state, user) === 'COMPLETED') {
    emit(ctx, { type: 'user.registrationCompleted', at: nowIso(ctx), userId: user.id, area: 's2s' });
  }
  return consentView(consent, user);
}

/** The card configs with the user's consent state (catalogue order, one page), and the KYC URL. */
export function listCardConfigs(ctx: DomainContext, userId: string, query: PageQuery = {}): CardConfigList {
  const user = findUser(ctx, userId);
  return {
    ...paginate(
      ctx,
      `listCardConfigs/${userId}`,
      ctx.state.catalogue.cardConfigs,
      (c) => c.id,
      query,
      (c) => cardConfigView(ctx.state, c, user),
    ),
    kycUrl: `${KYC_URL}?user=${user.id}`,
    kycStatus: user.kycStatus,
  };
}

/** The user, whose e-mail is not verified yet (else 409 EMAIL_ALREADY_VERIFIED). */
function unverifiedUser(ctx: DomainContext, userId: string): UserRecord {
  const user = findUser(ctx, userId);
  if (user.emailVerified)
    throw new ProblemError('EMAIL_ALREADY_VERIFIED', `The e-mail of user ${user.id} is already verified.`);
  return user;
}

/** Sends a new 6-digit code (replacing any previous one) to the user's outbox. */
export function requestEmailOtp(ctx: DomainContext, userId: string): EmailOtpChallenge {
  const user = unverifiedUser(ctx, userId);
  const code = ctx.rng.digits(6);
  const expiresAt = iso(ctx.now + OTP_TTL_MS);
  user.otp = { code, expiresAt, attemptsRemaining: OTP_ATTEMPTS };
  sendMessage(ctx, { userId: user.id, to: user.email, subject: 'Your verification code', code, sentAt: nowIso(ctx) });
  emit(ctx, { type: 'email.otpSent', at: nowIso(ctx), userId: user.id });
  return { sentTo: maskEmail(user.email), expiresAt, attemptsRemaining: OTP_ATTEMPTS };
}

/** Verifies the e-mail with the code the user entered. */
export function confirmEmail(ctx: DomainContext, userId: string, code: string): User {
  const user = unverifiedUser(ctx, userId);
  const otp = user.otp;
  if (!otp) throw unprocessable('OTP_NOT_REQUESTED', 'No code was requested; request one with requestEmailOtp first.');
  if (otp.attemptsRemaining <= 0)
    throw unprocessable('OTP_TOO_MANY_ATTEMPTS', 'The code was tried 5 times; request a new one.');
  if (ctx.now >= Date.parse(otp.expiresAt))
    throw unprocessable('OTP_EXPIRED', `The code expired at ${otp.expiresAt}; request a new one.`);
  if (code !== otp.code) {
    otp.attemptsRemaining -= 1;
    throw unprocessable(
      'OTP_INVALID',
      `The code is wrong; ${otp.attemptsRemaining} ${otp.attemptsRemaining === 1 ? 'try' : 'tries'} left.`,
    );
  }
  user.emailVerified = true;
  emit(ctx, { type: 'email.verified', at: nowIso(ctx), userId: user.id });
  user.otp = null;
  return userView(ctx.state, user);
}

/** The KYC provider's result for a user (control API). */
export function setKycStatus(ctx: DomainContext, userId: string, status: 'PASSED' | 'FAILED'): User {
  const user = findUser(ctx, userId);
  user.kycStatus = status;
  emit(ctx, { type: 'kyc.changed', at: nowIso(ctx), userId: user.id, status });
  return userView(ctx.state, user);
}

/** "ada@example.org" → "a***@example.org". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
