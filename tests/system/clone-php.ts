/**
 * PHP programs of tests/system/clone-core.test.ts, run by the real `php` inside the sandbox:
 * the WordPress-like source data (serialized by PHP itself), the checker that unserializes
 * what the clone wrote, and the generator of random values for the round-trip property test.
 */

/** `rep()`: what a correct replace gives, computed by PHP (str_replace inside, re-serialized). */
const REP = String.raw`
function looks($s) { return is_string($s) && preg_match('/^(?:N;|[bid]:[^;]*;|[sSaOCE]:\d+:[\s\S]*[;}])$/', $s); }
function rep($v, $from, $to) {
  if (is_string($v)) {
    if (!looks($v)) return str_replace($from, $to, $v);
    // Serialized: replaced inside; serialized-looking but broken: left as it is.
    $u = @unserialize($v);
    return $u === false && $v !== 'b:0;' ? $v : serialize(rep($u, $from, $to));
  }
  if (is_array($v)) { foreach ($v as $k => $x) $v[$k] = rep($x, $from, $to); return $v; }
  if ($v instanceof stdClass) { foreach (get_object_vars($v) as $k => $x) $v->$k = rep($x, $from, $to); return $v; }
  return $v;
}
`;

/**
 * SQL for the source database: wp_options (serialized values as PHP writes them), wp_posts
 * (guid kept), wp_postmeta (2500 JSON rows, for batches), a table without a key, a composite
 * string key, a latin1 table, and a trigger and a routine that must come along.
 */
export const SOURCE_SQL = String.raw`<?php
$q = fn($s) => "UNHEX('" . bin2hex($s) . "')";
$inner = 'x:i:0;' . serialize(['u' => 'https://a.test']) . ';m:a:0:{}';
$opts = [
  'siteurl' => 'https://a.test',
  'home' => 'https://a.test',
  'admin_email' => 'admin@example.org',
  'widget_text' => serialize([2 => ['title' => 'Grüße 日本 ', 'text' => '<a href="https://a.test/über">x</a>'], '_multiwidget' => 1]),
  'theme_mods_twenty' => serialize(['header_image' => 'http://a.test/wp-content/uploads/h.jpg',
    'nested' => ['deep' => ['url' => '//a.test/x', 'n' => 1.5, 'b' => true, 'z' => null, 7 => -3]]]),
  'double' => serialize(serialize(['url' => 'https://a.test/ü', 'obj' => (object) ['link' => 'https://a.test/o', 'n' => 'ñ']])),
  'json_opt' => json_encode(['url' => 'https://a.test/wp-json/', 'img' => '//a.test/i.png', 'enc' => 'https%3A%2F%2Fa.test%2F']),
  'other_domains' => serialize(['keep' => 'https://a.test.org/x', 'also' => 'https://aa.test/', 'sub' => 'https://sub.a.test/']),
  'c_payload' => 'C:11:"ArrayObject":' . strlen($inner) . ':{' . $inner . '}',
];
echo "CREATE TABLE wp_options (option_id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, option_name varchar(191) NOT NULL UNIQUE, option_value longtext NOT NULL, autoload varchar(20) NOT NULL DEFAULT 'yes') DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;\n";
foreach ($opts as $k => $v) echo "INSERT INTO wp_options (option_name, option_value) VALUES ('$k', {$q($v)});\n";
echo "CREATE TABLE wp_posts (ID bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, post_content longtext NOT NULL, guid varchar(255) NOT NULL) DEFAULT CHARSET=utf8mb4;\n";
foreach ([1, 2] as $i) echo "INSERT INTO wp_posts VALUES ($i, {$q("<p>Héllo <img src=\"https://a.test/wp-content/uploads/$i.jpg\"></p>")}, 'https://a.test/?p=$i');\n";
echo "CREATE TABLE wp_postmeta (meta_id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, post_id bigint unsigned NOT NULL, meta_key varchar(255), meta_value longtext) DEFAULT CHARSET=utf8mb4;\n";
$json = json_encode([['elType' => 'widget', 'settings' => ['link' => ['url' => 'https://a.test/page/'], 'title' => 'Ünïcode']]]);
echo "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) SELECT seq, '_elementor_data', {$q($json)} FROM seq_1_to_2500;\n";
echo "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (1, 'plain', 'no address here');\n";
echo "CREATE TABLE log_nokey (msg text, n int) DEFAULT CHARSET=utf8mb4;\n";
foreach ([1, 2, 3] as $i) echo "INSERT INTO log_nokey VALUES ({$q(serialize(['from' => 'https://a.test/wp-login.php', 'ü' => $i % 2]))}, $i);\n";
echo "CREATE TABLE kv (k1 varchar(50) NOT NULL, k2 int NOT NULL, v blob, PRIMARY KEY (k1, k2)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;\n";
foreach (['a', 'B', 'c'] as $k) foreach ([1, 2] as $n) echo "INSERT INTO kv VALUES ('$k', $n, {$q(serialize(['k' => "$k$n", 'u' => 'https://a.test/'.$k]))});\n";
// Past one batch, keyed by a case-insensitive string first, x and X mixed: the next batch must
// start after the last row in the collation's order (a byte-wise order would skip rows).
echo "INSERT INTO kv SELECT CONCAT(IF(seq % 2, 'X', 'x'), seq % 7), seq, {$q(serialize(['u' => 'https://a.test/ü']))} FROM seq_1_to_2100;\n";
echo "CREATE TABLE legacy (id int PRIMARY KEY, v varchar(200)) DEFAULT CHARSET=latin1;\n";
echo "INSERT INTO legacy VALUES (1, CONVERT(UNHEX('" . bin2hex('café https://a.test/') . "') USING utf8mb4));\n";
echo "CREATE TRIGGER wp_posts_touch BEFORE UPDATE ON wp_posts FOR EACH ROW SET NEW.post_content = NEW.post_content;\n";
echo "CREATE PROCEDURE hello() SELECT 'hi';\n";
`;

/**
 * Reads `name<TAB>hex` lines and prints one JSON object: each value unserialized (serialized
 * payloads within it too), or `false` for a value that does not unserialize.
 */
export const CHECK = String.raw`<?php
${REP}
function deep($v) {
  if (is_string($v) && looks($v)) { $u = @unserialize($v); return $u === false && $v !== 'b:0;' ? ['BROKEN' => $v] : deep($u); }
  if (is_array($v) || $v instanceof stdClass) { $o = []; foreach ((array) $v as $k => $x) $o[$k] = deep($x); return $o; }
  if (is_object($v)) return ['class' => get_class($v), 'data' => deep((array) $v)];
  return $v;
}
$out = [];
foreach (explode("\n", trim(stream_get_contents(STDIN))) as $line) {
  [$name, $hex] = explode("\t", $line);
  $v = hex2bin($hex);
  $out[$name] = ['ok' => !looks($v) || @unserialize($v) !== false, 'value' => deep($v)];
}
echo json_encode($out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE);
`;

/** Prints N lines `hex(serialize(v))<TAB>hex(serialize(rep(v)))` of random nested values. */
export const GENERATE = String.raw`<?php
${REP}
mt_srand((int) $argv[2]);
function str() {
  $bits = ['https://a.test/', 'http://a.test?', '//a.test/x', 'https:\/\/a.test\/', 'https%3A%2F%2Fa.test%2F', ' ', '";', 's:3:"', '}', '{', ';', ':', 'Grüße', '日本', "\n", "\0", "\xff\xfe", 'a.test', 'x'];
  $s = ''; for ($i = mt_rand(0, 6); $i > 0; $i--) $s .= $bits[mt_rand(0, count($bits) - 1)];
  return $s;
}
function val($d) {
  switch ($d > 3 ? mt_rand(0, 4) : mt_rand(0, 8)) {
    case 0: return null;
    case 1: return (bool) mt_rand(0, 1);
    case 2: return mt_rand(-1000, 1000);
    case 3: return mt_rand(0, 1) ? mt_rand() / 7 : [INF, -INF, 0.1, -0.0, 1e25][mt_rand(0, 4)];
    case 4: return str();
    case 5: case 6: $a = []; for ($i = mt_rand(0, 4); $i > 0; $i--) { $a[mt_rand(0, 1) ? str() : mt_rand(-5, 50)] = val($d + 1); } return $a;
    case 7: $o = new stdClass; for ($i = mt_rand(0, 3); $i > 0; $i--) { $o->{'p' . mt_rand(0, 9)} = val($d + 1); } return $o;
    default: return serialize(val($d + 1));
  }
}
$from = ['https://a.test', 'http://a.test', 'https:\/\/a.test', 'http:\/\/a.test', 'https%3A%2F%2Fa.test', 'http%3A%2F%2Fa.test', '\/\/a.test', '%2F%2Fa.test', '//a.test'];
$to = array_map(fn($f) => str_replace('a.test', 'new-site.example', $f), $from);
for ($i = 0; $i < (int) $argv[1]; $i++) { $v = val(0); echo bin2hex(serialize($v)), "\t", bin2hex(serialize(rep($v, $from, $to))), "\n"; }
`;

/** Reads `hex(ours)<TAB>hex(expected)` lines; prints the indexes where ours fails or differs. */
export const ROUNDTRIP = String.raw`<?php
$bad = [];
foreach (explode("\n", trim(stream_get_contents(STDIN))) as $i => $line) {
  [$ours, $want] = array_map('hex2bin', explode("\t", $line));
  $u = @unserialize($ours);
  if (($u === false && $ours !== 'b:0;') || serialize($u) !== $want) $bad[] = $i;
}
echo json_encode($bad);
`;
