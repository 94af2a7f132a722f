#!/usr/bin/perl
# The version is written once, in ulid.control; META.json (PGXN meta-spec
# 1.0.0), the install script and the Makefile must agree with it.
use strict;
use warnings;
use JSON::PP;
use Test::More;

sub slurp { local (@ARGV, $/) = @_; return <>; }

my ($version) = slurp('ulid.control') =~ /^default_version\s*=\s*'([^']+)'/m;
ok(defined $version, "ulid.control has a default_version ($version)");
like(slurp('ulid.control'), qr/^trusted\s*=\s*true/m, 'ulid.control: trusted = true');
like(slurp('ulid.control'), qr/^comment\s*=\s*'.+'/m, 'ulid.control: has a comment');

my $meta = eval { decode_json(slurp('META.json')) };
ok($meta, 'META.json is valid JSON') or diag $@;
$meta ||= {};
for my $key (qw(name abstract version maintainer license provides meta-spec)) {
	ok(exists $meta->{$key}, "META.json has required key $key");
}
is($meta->{'meta-spec'}{version}, '1.0.0', 'meta-spec version is 1.0.0');
is($meta->{name}, 'ulid', 'META.json name');
is($meta->{version}, $version, 'META.json version agrees with ulid.control');
like($meta->{version}, qr/^\d+\.\d+\.\d+$/, 'version is semantic (x.y.z)');
is($meta->{provides}{ulid}{version}, $version, 'provides.ulid.version agrees');
ok(-f $meta->{provides}{ulid}{file}, "provides.ulid.file exists ($meta->{provides}{ulid}{file})");
is($meta->{provides}{ulid}{file}, "ulid--$version.sql", 'provides.ulid.file is the install script of this version');
ok(grep({ $_ eq $meta->{license} } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl postgresql qpl_1_0 sun unrestricted open_source restricted)),
	"license is a meta-spec license name ($meta->{license})");
like($meta->{release_status} // 'stable', qr/^(stable|testing|unstable)$/, 'release_status is valid');
is(`make -s --no-print-directory -f Makefile print-version 2>/dev/null`, "$version\n", 'Makefile reads the same version');
like(slurp('LICENSE'), qr/PostgreSQL License/, 'LICENSE is the PostgreSQL licence');
like(slurp('CHANGELOG.md'), qr/\Q$version\E/, 'CHANGELOG.md mentions this version');
done_testing();
