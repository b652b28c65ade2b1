/**
 * A corporate's deposit addresses and top-ups, as listed to the corporation.
 * @module
 */
import type { CorporateDepositAddressList, TopUpList } from 'card-issuing-sdk';
import type { DomainContext } from './context';
import { corporateDepositAddressesOf, findCorporate, topUpsOf } from './lookups';
import { paginate, type PageQuery } from './pagination';
import { corporateDepositAddressView, topUpView } from './views';

/** The corporate's deposit addresses, oldest first, one page. */
export function listCorporateDepositAddresses(
  ctx: DomainContext,
  corporateUuid: string,
  query: PageQuery = {},
): CorporateDepositAddressList {
  findCorporate(ctx, corporateUuid);
  return paginate(
    ctx,
    `listCorporateDepositAddresses/${corporateUuid}`,
    corporateDepositAddressesOf(ctx, corporateUuid),
    (a) => a.id,
    query,
    corporateDepositAddressView,
  );
}

/** The corporate's top-ups, oldest first, one page. */
export function listTopUps(ctx: DomainContext, corporateUuid: string, query: PageQuery = {}): TopUpList {
  findCorporate(ctx, corporateUuid);
  return paginate(ctx, `listTopUps/${corporateUuid}`, topUpsOf(ctx, corporateUuid), (t) => t.id, query, topUpView);
}
