/**
 * node-forge, for what Web Crypto cannot do: the whole card-details scheme in a runtime without `crypto.subtle`
 * (jsdom, React Native, older embedded engines), and the conversions Web Crypto has no format for (PKCS#1 PEM,
 * node-forge key objects). `./runtime` loads this module with `import()` only when one of those is needed,
 * so a bundle that never needs it never loads forge (a separate chunk).
 *
 * The parts of node-forge are loaded module by module: RSA (OAEP, key generation, SPKI and PKCS#1/PKCS#8 ASN.1),
 * pki (forge's Node fast path of key generation reads the native key's PEM with it), AES-GCM, SHA-256, MGF1 and
 * PEM. Loading `node-forge` whole would also pull in TLS, SSH, PKCS#7 and more (298 KB minified instead of 213 KB).
 * Each module registers itself on the shared `forge` object, so the side-effect imports below are what fills it
 * (test/sdk/card-details.test.ts checks them in a process that loads nothing else of forge).
 *
 * Bytes cross this module's boundary as `Uint8Array`; forge's binary strings stay inside.
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
import { fromBinaryString, toBinaryString } from '../bytes';

/** node-forge's namespace, with (only) the modules imported above. */
export const forge = forgeCore as typeof Forge;

export type ForgePublicKey = Forge.pki.rsa.PublicKey;
export type ForgePrivateKey = Forge.pki.rsa.PrivateKey;

/** forge's stepped key generation (documented in its README; not in @types/node-forge). */
interface KeyPairGenerationState {
  keys: Forge.pki.rsa.KeyPair | null;
}
const steppedRsa = forge.pki.rsa as typeof forge.pki.rsa & {
  createKeyPairGenerationState(bits: number, e: number): KeyPairGenerationState;
  stepKeyPairGenerationState(state: KeyPairGenerationState, milliseconds: number): boolean;
};

const oaep = () => ({ md: forge.md.sha256.create(), mgf1: { md: forge.md.sha256.create() } });

const toBinary = toBinaryString;
const toBytes = fromBinaryString;

/**
 * An RSA key pair: natively under Node, else in pure JavaScript, made in steps of at most 50 ms with the event loop free in between (forge's
 * stepKeyPairGenerationState), so a page or an app stays responsive while it runs (about a second for 2048 bits).
 * Not forge's callback form: that one starts Web Workers from a script URL (`forge/prime.worker.js`) a bundle does
 * not have.
 */
export function generateKeyPair(bits: number): Promise<Forge.pki.rsa.KeyPair> {
  // Under Node (jsdom runs there), forge's one-call form hands the work to Node's native key generation.
  const flags = forge as unknown as { util: { isNodejs?: unknown }; options?: { usePureJavaScript?: boolean } };
  if (flags.util.isNodejs && !flags.options?.usePureJavaScript)
    return Promise.resolve(forge.pki.rsa.generateKeyPair({ bits, e: 0x10001 }));
  const state = steppedRsa.createKeyPairGenerationState(bits, 0x10001);
  return new Promise((resolve, reject) => {
    const step = () => {
      try {
        if (steppedRsa.stepKeyPairGenerationState(state, 50)) resolve(state.keys!);
        else setTimeout(step, 0);
      } catch (error) {
        reject(error);
      }
    };
    step();
  });
}

/** The DER SubjectPublicKeyInfo of a forge public key. */
export function spkiOf(key: ForgePublicKey): Uint8Array {
  return toBytes(forge.asn1.toDer(forge.pki.publicKeyToAsn1(key)).getBytes());
}

/** A forge public key from a DER SubjectPublicKeyInfo; throws when it is not the DER of an RSA key, every byte parsed. */
export function publicKeyFromSpki(der: Uint8Array): ForgePublicKey {
  return forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(toBinary(der), true)) as ForgePublicKey;
}

/** The DER PKCS#8 PrivateKeyInfo of a forge private key. */
export function pkcs8Of(key: ForgePrivateKey): Uint8Array {
  return toBytes(forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))).getBytes());
}

/** A forge private key from PEM (PKCS#1 `RSA PRIVATE KEY` or PKCS#8 `PRIVATE KEY`); throws for anything else. */
export function privateKeyFromPem(pem: string): ForgePrivateKey {
  return forge.pki.privateKeyFromPem(pem) as ForgePrivateKey;
}

/** `length` random bytes from forge's PRNG (seeded from `crypto.getRandomValues` where there is one). */
export function randomBytes(length: number): Uint8Array {
  return toBytes(forge.random.getBytesSync(length));
}

/** RSA-OAEP with SHA-256 and MGF1-SHA-256. */
export function rsaOaepEncrypt(key: ForgePublicKey, plaintext: Uint8Array): Uint8Array {
  return toBytes(key.encrypt(toBinary(plaintext), 'RSA-OAEP', oaep()));
}

/** RSA-OAEP with SHA-256 and MGF1-SHA-256; undefined when the ciphertext was not made for this key. */
export function rsaOaepDecrypt(key: ForgePrivateKey, ciphertext: Uint8Array): Uint8Array | undefined {
  try {
    return toBytes(key.decrypt(toBinary(ciphertext), 'RSA-OAEP', oaep()));
  } catch {
    return undefined;
  }
}

/** AES-GCM with a 128-bit tag. */
export function aesGcmEncrypt(
  key: Uint8Array,
  iv: Uint8Array,
  additionalData: Uint8Array,
  plaintext: Uint8Array,
): { ciphertext: Uint8Array; tag: Uint8Array } {
  const cipher = forge.cipher.createCipher('AES-GCM', toBinary(key));
  cipher.start({ iv: toBinary(iv), additionalData: toBinary(additionalData), tagLength: 128 });
  cipher.update(forge.util.createBuffer(toBinary(plaintext)));
  cipher.finish();
  return { ciphertext: toBytes(cipher.output.getBytes()), tag: toBytes(cipher.mode.tag.getBytes()) };
}

/** AES-GCM with a 128-bit tag; undefined when the tag does not match (wrong key, or tampered with). */
export function aesGcmDecrypt(
  key: Uint8Array,
  iv: Uint8Array,
  additionalData: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Uint8Array | undefined {
  const decipher = forge.cipher.createDecipher('AES-GCM', toBinary(key));
  decipher.start({
    iv: toBinary(iv),
    additionalData: toBinary(additionalData),
    tagLength: 128,
    tag: forge.util.createBuffer(toBinary(tag)),
  });
  decipher.update(forge.util.createBuffer(toBinary(ciphertext)));
  return decipher.finish() ? toBytes(decipher.output.getBytes()) : undefined;
}
