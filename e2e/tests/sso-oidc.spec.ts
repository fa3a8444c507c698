import { expect, test } from '../fixtures.ts';
import { SSO_COMPANY, ssoFlows, signInWithCompany, uniqueEmail, type SsoPortal } from '../sso.ts';

// The shared stack is configured with an OIDC provider (global-setup.ts), as npm start's demo is.
let ssoPortal: SsoPortal | undefined;

test.beforeEach(async ({ portal }) => {
  ssoPortal = {
    url: portal.url,
    async addUser(email) {
      expect((await portal.adminApi('POST', `/api/users/${email}`)).status).toBe(201);
    },
    async removeUser(email) {
      expect((await portal.adminApi('DELETE', `/api/users/${encodeURIComponent(email)}`)).status).toBe(200);
    },
  };
});

ssoFlows('OIDC', () => ssoPortal!);

test.describe('the SSO button', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}×${viewport.height}: a 44 px touch target, axe clean`, async ({ page, portal }) => {
      await page.setViewportSize(viewport);
      await page.goto('/login');
      const button = page.getByRole('button', { name: `Sign in with ${SSO_COMPANY}` });
      await expect(button).toBeVisible();
      const box = (await button.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      await portal.expectAccessible(page);
      await page.screenshot({
        path: test.info().outputPath(`login-sso-${viewport.width}x${viewport.height}.png`),
        fullPage: true,
      });
    });
  }

  test('an admin signed in with the company account still confirms with a passkey', async ({ page, portal }) => {
    // The demo admin's address through the company: the provider's own MFA does not stand in for the passkey.
    const email = uniqueEmail('admin');
    await portal.adminApi('POST', `/api/users/${email}`);
    expect((await portal.adminApi('PATCH', `/api/users/${email}`, { admin: true })).status).toBe(200);
    await page.goto('/admin');
    await signInWithCompany(page, email);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('region', { name: 'Set up a passkey' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('table', { name: 'Allowed users' })).toHaveCount(0);
  });
});
