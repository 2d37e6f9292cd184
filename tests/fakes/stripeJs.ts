/**
 * A small stand-in for Stripe.js v3, served by the Stripe fake at `GET /v3` (tests, and
 * machines without the internet through STRIPE_JS_URL). Built from Stripe's public
 * documentation of the calls the panel makes (docs.stripe.com/js): `Stripe(publishableKey)`,
 * `elements()`, `elements.create('card')`, `element.mount(target)`,
 * `stripe.confirmCardSetup(clientSecret, { payment_method: { card } })` and
 * `stripe.confirmCardPayment(clientSecret, { payment_method: { card } })`, which resolve to
 * `{ setupIntent }`, `{ paymentIntent }` or `{ error: { message } }` as Stripe's do. It is not
 * Stripe's code: the card form is three plain inputs, the card number picks one of Stripe's
 * test payment methods, and 3-D Secure is a confirm() dialog, all against the fake's
 * `/_fake/...` routes: the fake serves it with its own origin written in, since the page loads
 * it through the panel's redirecting `payment-methods/stripe.js` (`document.currentScript.src`
 * is then the panel's address, not the fake's).
 */
export const stripeJsStandIn = (fakeOrigin: string) =>
  String.raw`(function () {
  var base = ${JSON.stringify(fakeOrigin)};
  var TEST_CARDS = {
    '4242424242424242': 'pm_card_visa',
    '5555555555554444': 'pm_card_mastercard',
    '4000000000000002': 'pm_card_chargeDeclined',
    '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
    '4000002500003155': 'pm_card_authenticationRequired',
    '4000000000000341': 'pm_card_chargeCustomerFail'
  };
  function post(path, fields) {
    var body = new URLSearchParams(fields).toString();
    return fetch(base + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body
    }).then(function (res) {
      return res.json().then(function (json) { return { ok: res.ok, json: json }; });
    });
  }
  function input(label, name, placeholder) {
    var wrap = document.createElement('label');
    wrap.style.display = 'block';
    wrap.style.margin = '4px 0';
    wrap.textContent = label + ' ';
    var field = document.createElement('input');
    field.name = name;
    field.placeholder = placeholder;
    field.autocomplete = 'off';
    field.setAttribute('data-stand-in', name);
    wrap.appendChild(field);
    return { wrap: wrap, field: field };
  }
  function cardElement() {
    var number = input('Card number', 'cardnumber', '4242 4242 4242 4242');
    var expiry = input('Expiry', 'exp-date', 'MM / YY');
    var cvc = input('CVC', 'cvc', '123');
    return {
      mount: function (target) {
        var node = typeof target === 'string' ? document.querySelector(target) : target;
        node.appendChild(number.wrap);
        node.appendChild(expiry.wrap);
        node.appendChild(cvc.wrap);
      },
      unmount: function () {},
      destroy: function () {},
      on: function () {},
      _method: function () {
        return TEST_CARDS[number.field.value.replace(/\s+/g, '')] || null;
      }
    };
  }
  window.Stripe = function (publishableKey) {
    function confirm(kind, clientSecret, data) {
      var card = data && data.payment_method && data.payment_method.card;
      var pm = card && card._method();
      if (!pm) return Promise.resolve({ error: { type: 'validation_error', message: 'Your card number is invalid.' } });
      var id = clientSecret.split('_secret_')[0];
      return post('/_fake/' + kind + '/' + id + '/confirm', {
        key: publishableKey, client_secret: clientSecret, payment_method: pm
      }).then(function (answer) {
        if (!answer.ok) return { error: answer.json.error };
        var intent = answer.json;
        if (kind === 'payment_intents' && intent.status === 'requires_action') {
          var pass = window.confirm('Stand-in 3-D Secure: authenticate this payment?');
          return post('/_fake/payment_intents/' + id + '/authenticate?result=' + (pass ? 'pass' : 'fail'), {})
            .then(function (next) {
              var after = next.json;
              if (after.status !== 'succeeded') return { error: after.last_payment_error || { message: 'Authentication failed.' } };
              return { paymentIntent: after };
            });
        }
        return kind === 'setup_intents' ? { setupIntent: intent } : { paymentIntent: intent };
      });
    }
    return {
      elements: function () {
        return { create: function () { return cardElement(); } };
      },
      confirmCardSetup: function (clientSecret, data) { return confirm('setup_intents', clientSecret, data); },
      confirmCardPayment: function (clientSecret, data) { return confirm('payment_intents', clientSecret, data); }
    };
  };
})();
`;
