// The independent conformance checker lives in the contract package (contract/src/conformance/validator.ts), which
// CI pipelines install; the repository's tests import it from there through this name.
export * from '../../contract/src/conformance/validator';
