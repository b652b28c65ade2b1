/**
 * The parts of node-forge the card-details helpers use, loaded module by module: RSA (OAEP, key generation,
 * SPKI and PKCS#1/PKCS#8 ASN.1), pki (forge's Node fast path of key generation reads the native key's PEM with
 * it), AES-GCM, SHA-256, MGF1 and PEM. Loading `node-forge` whole would also pull in TLS, SSH, PKCS#7 and more:
 * 298 KB minified instead of 213 KB in a browser bundle. Each module registers itself on the shared `forge`
 * object, so the side-effect imports below are what fills it (test/sdk/card-details.test.ts checks them in a
 * process that loads nothing else of forge).
 * @module
 * @internal
 */
import type Forge from 'node-forge';
// @ts-expect-error -- node-forge's lib modules have no type declarations; the object is typed as the whole package.
import forgeCore from 'node-forge/lib/forge.js';
import 'node-forge/lib/rsa.js';
import 'node-forge/lib/pki.js';
import 'node-forge/lib/aes.js';
import 'node-forge/lib/sha256.js';
import 'node-forge/lib/mgf1.js';
import 'node-forge/lib/pem.js';

/** node-forge's namespace, with (only) the modules imported above. */
export const forge = forgeCore as typeof Forge;
