// One page walker for the mock's list tests and the contract suite: it lives with the suite (contract/).
export { walkPages } from '../../contract/src/suite/support/walk-pages';
