import { DEMO, expect, test } from '../fixtures.ts';

test.describe('sign-in', () => {
  test('a wrong password shows the alert', async ({ page, portal }) => {
    await page.goto('/login');
    await portal.signIn(page, { email: DEMO.user.email, password: 'not-the-password' });
    await expect(page.getByRole('alert')).toHaveText('Either email or password is incorrect');
    await portal.expectAccessible(page);
  });

  test('a signed-out visit to /admin ends, after sign-in, back on /admin', async ({ page, portal }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
    await portal.signIn(page, DEMO.admin);
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('an admin sees "Admin Page", an ordinary user does not', async ({ page, portal }) => {
    await page.goto('/login');
    await portal.signIn(page, DEMO.admin);
    // Signed in without a parcel code, the invoice screen says so first.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('link', { name: 'Admin Page' })).toBeVisible();
    await expect(page.getByText(DEMO.admin.email)).toBeVisible();
    await page.getByRole('button', { name: 'Sign Out' }).click();

    await portal.signIn(page, DEMO.user);
    await expect(page.getByText(DEMO.user.email)).toBeVisible();
    // The header's lookup has answered once the user's e-mail shows; give it a moment to be sure.
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('link', { name: 'Admin Page' })).toHaveCount(0);
  });

  test('sign-out returns to /login and clears both storage keys', async ({ page, portal }) => {
    await page.goto('/invoice?parcelCode=DEMO000001');
    await portal.signIn(page, DEMO.user);
    await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
    expect(await page.evaluate(() => localStorage.getItem('userEmail'))).toBeTruthy();
    expect(await page.evaluate(() => sessionStorage.getItem('beforeLogin'))).toBeTruthy();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('userEmail'))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('beforeLogin'))).toBeNull();
  });

  test('an unknown path shows "Page Not Found"', async ({ page, portal }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
    await expect(page.getByText('Page Not Found')).toBeVisible();
    await portal.expectAccessible(page);
  });

  test('a render crash shows the fallback and reports to Sentry with environment L1 and the release', async ({
    page,
    portal,
  }) => {
    await portal.clearSentryEvents();
    // Simulates a browser that blocks storage access (e.g. strict privacy settings), which crashes a render.
    await page.addInitScript(() => {
      const getItem = Storage.prototype.getItem;
      Storage.prototype.getItem = function (key: string) {
        if (key === 'beforeLogin') throw new DOMException('The operation is insecure.', 'SecurityError');
        return getItem.call(this, key);
      };
    });
    await page.goto('/login');
    await portal.signIn(page, DEMO.user);
    await expect(page.getByText('Oops! Something went wrong.')).toBeVisible();
    await expect
      .poll(
        async () =>
          (await portal.sentryEvents()).find((event) => event.environment === 'L1')?.exception?.values?.[0]?.value,
      )
      .toContain('The operation is insecure.');
    // The release the server answers (GET /api/version): the name its source maps are uploaded under.
    const { release } = (await (await fetch(`${portal.url}/api/version`)).json()) as { release: string };
    const event = (await portal.sentryEvents()).find((candidate) => candidate.environment === 'L1');
    expect(event?.release).toBe(release);
  });
});
