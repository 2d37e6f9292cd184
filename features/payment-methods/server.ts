import { defineServerFeature } from '../../server/feature';
import { HttpError, notFound } from '../../server/http/errors';
import { defineHandlers, loadedChild } from '../../server/http/handlers';
import { paymentHooks, paymentMethods } from './resource';
import { availableGateways } from './serverCollect';
import { gatewayOf } from './serverGateways';
import * as migration from './serverMigration';
import { finishSetup, paypalReturned, receiveWebhook } from './serverSettle';
import { stripeJsUrl } from './serverSettings';
import {
  asHttpError,
  customerRefOf,
  forgetMethod,
  makeDefault,
  methodOfAccount,
  methodRecord,
  methodsOf,
} from './serverStore';

declare module '../../server/http/children' {
  interface FeatureChildRows {
    'payment-methods': NonNullable<Awaited<ReturnType<typeof methodOfAccount>>>;
  }
}

const methodHandlers = defineHandlers(paymentMethods, {
  actions: {
    async list(ctx) {
      const rows = await methodsOf(ctx.app.db, ctx.uid);
      return {
        data: rows.map(methodRecord),
        total: rows.length,
        gateways: await availableGateways(ctx.app),
      };
    },

    async start(ctx) {
      const provider = ctx.body.gateway;
      const { gateway, credential } = await gatewayOf(ctx.app, provider);
      const customerRef = await customerRefOf(ctx.app, ctx.uid, provider, gateway);
      // PayPal sends the buyer back to the page, which finishes the setup.
      const page = `${ctx.app.config.publicUrl}/recharge-payment-method/${ctx.uid}`;
      const setup = await gateway
        .createSetup({
          customerRef,
          returnUrl: `${page}?paypal=approved`,
          cancelUrl: `${page}?paypal=cancelled`,
        })
        .catch((error: unknown) => {
          throw asHttpError(error);
        });
      await ctx.app.db
        .insertInto('payment_setups')
        .values({
          user_id: ctx.uid,
          gateway: provider,
          setup_ref: setup.setupRef,
          created_at: new Date().toISOString(),
        })
        .execute();
      return {
        gateway: provider,
        setup_ref: setup.setupRef,
        client_secret: setup.clientSecret ?? null,
        publishable_key: provider === 'stripe' ? (credential.publishableKey ?? null) : null,
        approve_url: setup.approveUrl ?? null,
      };
    },

    async complete(ctx) {
      const setup = await ctx.app.db
        .selectFrom('payment_setups')
        .selectAll()
        .where('user_id', '=', ctx.uid)
        .where('setup_ref', '=', ctx.body.setup_ref)
        .executeTakeFirst();
      if (!setup) throw notFound('No such setup: start adding the payment method again');
      return methodRecord(await finishSetup(ctx.app, ctx.uid, setup.gateway, setup.setup_ref));
    },

    async remove(ctx) {
      const row = loadedChild(ctx.child);
      const { gateway } = await gatewayOf(ctx.app, row.gateway);
      try {
        await gateway.detach({ ref: row.ref });
      } catch (error) {
        // Already gone at the gateway (removed there, or a card that expired): remove it here.
        const http = asHttpError(error);
        if (!(http instanceof HttpError) || http.statusCode !== 409) throw http;
      }
      await forgetMethod(ctx.app.db, row);
      return methodRecord(row);
    },

    async setDefault(ctx) {
      const row = loadedChild(ctx.child);
      await makeDefault(ctx.app.db, row);
      return methodRecord({ ...row, is_default: 1 });
    },

    async default(ctx) {
      const row = await ctx.app.db
        .selectFrom('payment_methods')
        .selectAll()
        .where('user_id', '=', ctx.uid)
        .where('is_default', '=', 1)
        .executeTakeFirst();
      return { data: row ? methodRecord(row) : null };
    },
  },
});

const headersOf = (ctx: { req: { headers: Record<string, string | string[] | undefined> } }) =>
  ctx.req.headers;

const hookHandlers = defineHandlers(paymentHooks, {
  actions: {
    stripe: (ctx) =>
      receiveWebhook(
        ctx.app,
        'stripe',
        ctx.req.rawBody ?? Buffer.alloc(0),
        headersOf(ctx),
        ctx.req.ip,
      ),
    paypal: (ctx) =>
      receiveWebhook(
        ctx.app,
        'paypal',
        ctx.req.rawBody ?? Buffer.alloc(0),
        headersOf(ctx),
        ctx.req.ip,
      ),

    async paypalReturn(ctx) {
      const { token, cancel } = ctx.query;
      const back = `${ctx.app.config.publicUrl}/subscription`;
      if (cancel || !token) return ctx.reply.redirect(`${back}?paypal=cancelled`, 302);
      // The buyer is in a browser: whatever happened, they land on a page of the panel, which
      // shows the invoice as billing has it (PayPal's webhook settles what a failure left open).
      const status = await paypalReturned(ctx.app, token).then(
        (result) => result.status,
        (error: unknown) => {
          ctx.req.log.warn({ err: error, order: token }, 'PayPal return not completed');
          return 'failed';
        },
      );
      return ctx.reply.redirect(`${back}?paypal=${encodeURIComponent(status)}`, 302);
    },

    async stripeJs(ctx) {
      return ctx.reply.redirect(stripeJsUrl(ctx.app), 302);
    },
  },
});

/** The panel side of saved payment methods, webhooks and collection (issue 26). */
export const server = defineServerFeature({
  handlers: [methodHandlers, hookHandlers],
  accountChildren: { 'payment-methods': methodOfAccount },
  migrations: { '0064_payment_methods': migration },
  emits: { 'payment.settled': 'after' },
});
