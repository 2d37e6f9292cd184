import { describe, expect, it } from 'vitest';
import { s3Region } from '../../features/thirdpartykeys/serverVerify';

describe('s3Region', () => {
  it.each([
    ['s3.eu-central-1.amazonaws.com', 'eu-central-1'],
    ['s3-us-west-2.amazonaws.com', 'us-west-2'],
    ['s3.eu-central-2.wasabisys.com', 'eu-central-2'],
    ['fra1.digitaloceanspaces.com', 'fra1'],
    ['s3.amazonaws.com', 'us-east-1'],
    ['minio.example.com', 'us-east-1'],
  ])('%s signs for %s', (host, region) => {
    expect(s3Region(host)).toBe(region);
  });
});
