import { hash, verify } from '@node-rs/argon2';

/** OWASP password storage: argon2id, 19 MiB, 2 iterations, 1 lane. (2 = Algorithm.Argon2id) */
const ARGON2ID = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;
/** Spends the time of a real check when there is no user, so timing does not reveal emails. */
export async function burnPasswordCheck(password: string): Promise<false> {
  decoy ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(await decoy, password);
  return false;
}
