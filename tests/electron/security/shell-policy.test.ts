import { describe, expect, it } from 'vitest';
import { permissionPolicy, rendererDevServerUrl } from '../../../electron/security/shell-policy';

describe('the Electron shell policy', () => {
  it('honours ELECTRON_RENDERER_URL only in an unpackaged build, and only on this machine', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173/' };
    expect(rendererDevServerUrl(env, false)).toBe('http://localhost:5173/');
    expect(rendererDevServerUrl(env, true)).toBeUndefined();
    expect(rendererDevServerUrl({}, false)).toBeUndefined();
    expect(rendererDevServerUrl({ ELECTRON_RENDERER_URL: 'https://evil.example/' }, false)).toBeUndefined();
    expect(rendererDevServerUrl({ ELECTRON_RENDERER_URL: 'file:///tmp/x.html' }, false)).toBeUndefined();
    expect(rendererDevServerUrl({ ELECTRON_RENDERER_URL: 'not a url' }, false)).toBeUndefined();
  });

  it('denies every permission request, check and device', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'hid',
      'usb',
      'serial',
    ]) {
      expect(permissionPolicy.request(permission)).toBe(false);
      expect(permissionPolicy.check(permission)).toBe(false);
      expect(permissionPolicy.device(permission)).toBe(false);
    }
  });
});
