import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

describe('where the API listens', () => {
  it('defaults to 127.0.0.1:8080', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', port: 8080, publicUrl: 'http://localhost:8080' });
  });

  it('honours the platform convention PORT and HOST when the DOPPEL_ names are unset', () => {
    expect(loadConfig({ PORT: '3000', HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0', port: 3000, publicUrl: 'http://localhost:3000' });
  });

  it('prefers DOPPEL_PORT and DOPPEL_HOST over PORT and HOST', () => {
    expect(loadConfig({ PORT: '3000', HOST: '0.0.0.0', DOPPEL_PORT: '9000', DOPPEL_HOST: '::1' })).toMatchObject({ host: '::1', port: 9000 });
  });

  it('names PORT when it is not a port', () => {
    expect(() => loadConfig({ PORT: 'http' })).toThrow(/invalid configuration: PORT/);
  });
});
