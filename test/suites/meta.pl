#!/usr/bin/perl
# META.json against the PGXN Meta Spec 1.0.0 (https://pgxn.org/meta/spec.txt),
# field by field: the required fields (name, abstract, version, maintainer,
# license, provides, meta-spec) and the optional ones the spec describes
# (description, generated_by, tags, no_index, prereqs, release_status,
# resources), each with its type and its allowed values; any other key
# must be a custom x_ key.  The recommended fields that this distribution
# can fill are required here too.  Then the validator is shown to catch a
# broken META.json, one mutation at a time (a check that cannot fail proves
# nothing).  Finally the version is written once, in ulid.control; META.json,
# the install script and the Makefile must agree with it.
use strict;
use warnings;
use JSON::PP;
use Test::More;

sub slurp { local (@ARGV, $/) = @_; return <>; }

# --- the spec's types -----------------------------------------------------
my $semver = qr/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
sub is_string { my $v = shift; return defined $v && !ref $v && length $v > 0; }
sub is_term { my $v = shift; return is_string($v) && length $v >= 2 && $v !~ m{[/\\\s[:cntrl:]]}; }
sub is_tag { my $v = shift; return is_string($v) && length $v <= 255 && $v !~ m{[/\\[:cntrl:]]}; }
sub is_version { my $v = shift; return is_string($v) && $v =~ $semver; }
sub is_uri { my $v = shift; return is_string($v) && $v =~ m{^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$}; }
sub is_path { my $v = shift; return is_string($v) && $v !~ m{^/|\\|(^|/)\.\.(/|$)}; }
sub is_object { return ref $_[0] eq 'HASH'; }
sub is_array { return ref $_[0] eq 'ARRAY' && @{$_[0]} > 0; }
sub custom { return $_[0] =~ /^[xX]_./; }
# a version range: 0, a version, or comma-separated "op version" clauses
sub is_range {
	my $v = shift;
	return 0 unless defined $v && !ref $v;
	return 1 if $v eq '0' || is_version($v);
	for my $clause (split /\s*,\s*/, $v) {
		return 0 unless $clause =~ /^(==|!=|>=|<=|>|<)\s*(\S+)$/ && ($2 eq '0' || is_version($2));
	}
	return 1;
}
my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd freebsd
	gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5
	postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);

# validate(META, DIR): the list of what is wrong with META (a decoded
# META.json) for the distribution in DIR; empty when it is valid
sub validate {
	my ($m, $dir) = @_;
	my @e;
	return ('META.json is not a JSON object') unless is_object($m);
	for my $key (qw(name abstract version maintainer license provides meta-spec)) {
		push @e, "required field $key is missing" unless exists $m->{$key};
	}
	my %known = map { $_ => 1 } qw(name abstract version maintainer license provides meta-spec
		description generated_by tags no_index prereqs release_status resources);
	push @e, map { "unknown field $_ (custom fields start with x_)" } grep { !$known{$_} && !custom($_) } sort keys %$m;

	push @e, 'name is not a Term' if exists $m->{name} && !is_term($m->{name});
	push @e, 'abstract is not a non-empty string' if exists $m->{abstract} && !is_string($m->{abstract});
	push @e, 'version is not a semantic version' if exists $m->{version} && !is_version($m->{version});
	if (exists $m->{maintainer}) {
		my $mt = $m->{maintainer};
		push @e, 'maintainer is not a string or an array of strings'
			unless is_string($mt) || (is_array($mt) && !grep { !is_string($_) } @$mt);
	}
	if (exists $m->{license}) {
		my $l = $m->{license};
		push @e, 'license is not a license name, a list of them or an object of license URIs'
			unless (!ref $l && defined $l && $licenses{$l})
			|| (is_array($l) && !grep { ref $_ || !$licenses{$_} } @$l)
			|| (is_object($l) && %$l && !grep { !is_uri($_) } values %$l);
	}
	if (exists $m->{provides}) {
		my $p = $m->{provides};
		if (!is_object($p) || !%$p) {
			push @e, 'provides is not an object naming at least one extension';
		} else {
			for my $ext (sort keys %$p) {
				my $x = $p->{$ext};
				push @e, "provides: $ext is not a Term" unless is_term($ext);
				if (!is_object($x)) { push @e, "provides.$ext is not an object"; next; }
				push @e, "provides.$ext.file is missing or not a relative path" unless is_path($x->{file});
				push @e, "provides.$ext.file $x->{file} is not in the distribution"
					if is_path($x->{file}) && !-f "$dir/$x->{file}";
				push @e, "provides.$ext.version is missing or not a semantic version" unless is_version($x->{version});
				push @e, "provides.$ext.abstract is not a non-empty string" if exists $x->{abstract} && !is_string($x->{abstract});
				if (exists $x->{docfile}) {
					push @e, "provides.$ext.docfile is not a relative path" unless is_path($x->{docfile});
					push @e, "provides.$ext.docfile $x->{docfile} is not in the distribution"
						if is_path($x->{docfile}) && !-f "$dir/$x->{docfile}";
				}
				push @e, map { "provides.$ext: unknown field $_" }
					grep { !/^(file|version|abstract|docfile)$/ && !custom($_) } sort keys %$x;
			}
		}
	}
	if (exists $m->{'meta-spec'}) {
		my $s = $m->{'meta-spec'};
		if (!is_object($s)) {
			push @e, 'meta-spec is not an object';
		} else {
			push @e, 'meta-spec.version is not 1.0.0' unless ($s->{version} // '') eq '1.0.0';
			push @e, 'meta-spec.url is not a URI' if exists $s->{url} && !is_uri($s->{url});
			push @e, map { "meta-spec: unknown field $_" } grep { !/^(version|url)$/ && !custom($_) } sort keys %$s;
		}
	}
	for my $key (qw(description generated_by)) {
		push @e, "$key is not a non-empty string" if exists $m->{$key} && !is_string($m->{$key});
	}
	if (exists $m->{tags}) {
		push @e, 'tags is not a non-empty array of tags (no slash, backslash, control character; 255 at most)'
			unless is_array($m->{tags}) && !grep { !is_tag($_) } @{$m->{tags}};
	}
	if (exists $m->{no_index}) {
		my $n = $m->{no_index};
		if (!is_object($n)) {
			push @e, 'no_index is not an object';
		} else {
			for my $key (sort keys %$n) {
				if ($key =~ /^(file|directory)$/) {
					push @e, "no_index.$key is not a path or an array of paths"
						unless is_path($n->{$key}) || (is_array($n->{$key}) && !grep { !is_path($_) } @{$n->{$key}});
				} elsif (!custom($key)) {
					push @e, "no_index: unknown field $key";
				}
			}
		}
	}
	if (exists $m->{prereqs}) {
		my $pr = $m->{prereqs};
		if (!is_object($pr)) {
			push @e, 'prereqs is not an object';
		} else {
			for my $phase (sort keys %$pr) {
				if ($phase !~ /^(configure|build|test|runtime|develop)$/) {
					push @e, "prereqs: unknown phase $phase" unless custom($phase);
					next;
				}
				if (!is_object($pr->{$phase})) { push @e, "prereqs.$phase is not an object"; next; }
				for my $rel (sort keys %{$pr->{$phase}}) {
					if ($rel !~ /^(requires|recommends|suggests|conflicts)$/) {
						push @e, "prereqs.$phase: unknown relationship $rel" unless custom($rel);
						next;
					}
					my $deps = $pr->{$phase}{$rel};
					if (!is_object($deps)) { push @e, "prereqs.$phase.$rel is not an object"; next; }
					for my $dep (sort keys %$deps) {
						push @e, "prereqs.$phase.$rel: $dep is not a Term" unless is_term($dep);
						push @e, "prereqs.$phase.$rel.$dep is not a version range" unless is_range($deps->{$dep});
					}
				}
			}
		}
	}
	push @e, 'release_status is not stable, testing or unstable'
		if exists $m->{release_status} && ($m->{release_status} // '') !~ /^(stable|testing|unstable)$/;
	if (exists $m->{resources}) {
		my $r = $m->{resources};
		if (!is_object($r) || !%$r) {
			push @e, 'resources is not a non-empty object';
		} else {
			push @e, 'resources.homepage is not a URI' if exists $r->{homepage} && !is_uri($r->{homepage});
			if (exists $r->{bugtracker}) {
				my $b = $r->{bugtracker};
				push @e, 'resources.bugtracker is not an object with web (URI) or mailto (address)'
					unless is_object($b) && (exists $b->{web} || exists $b->{mailto})
					&& (!exists $b->{web} || is_uri($b->{web}))
					&& (!exists $b->{mailto} || ($b->{mailto} // '') =~ /^[^@\s]+@[^@\s]+$/)
					&& !grep { !/^(web|mailto)$/ && !custom($_) } keys %$b;
			}
			if (exists $r->{repository}) {
				my $rp = $r->{repository};
				push @e, 'resources.repository is not an object with url or web (URIs) and type'
					unless is_object($rp) && (exists $rp->{url} || exists $rp->{web})
					&& (!exists $rp->{url} || is_uri($rp->{url}))
					&& (!exists $rp->{web} || is_uri($rp->{web}))
					&& (!exists $rp->{url} || is_string($rp->{type}))
					&& !grep { !/^(url|web|type)$/ && !custom($_) } keys %$rp;
			}
			push @e, map { "resources: unknown field $_" }
				grep { !/^(homepage|bugtracker|repository)$/ && !custom($_) } sort keys %$r;
		}
	}
	return @e;
}

# --- this distribution's META.json ----------------------------------------
my $meta = eval { decode_json(slurp('META.json')) };
ok($meta, 'META.json is valid JSON') or diag $@;
$meta ||= {};
my @errors = validate($meta, '.');
ok(!@errors, 'META.json is valid PGXN meta-spec 1.0.0') or diag join("\n", @errors);
# what the spec makes optional and PGXN shows (its search, its pages, its
# client's dependency checks): this distribution fills them in.  resources
# is left out: there is no public home page, repository or tracker to name.
for my $key (qw(description generated_by tags prereqs release_status)) {
	ok(exists $meta->{$key}, "META.json has the recommended field $key");
}
ok(is_range($meta->{prereqs}{runtime}{requires}{PostgreSQL} // undef),
	'prereqs.runtime.requires names the PostgreSQL it needs');

# --- the validator catches what is wrong ----------------------------------
sub mutated {
	my ($change) = @_;
	my $copy = decode_json(encode_json($meta));
	$change->($copy);
	return $copy;
}
my @broken = (
	(map { my $k = $_; ["without $k", sub { delete $_[0]{$k} }] }
		qw(name abstract version maintainer license provides meta-spec)),
	['name with a space', sub { $_[0]{name} = 'ulid ext' }],
	['name of one character', sub { $_[0]{name} = 'u' }],
	['version 0.3 (not semantic)', sub { $_[0]{version} = '0.3' }],
	['empty abstract', sub { $_[0]{abstract} = '' }],
	['maintainer an empty array', sub { $_[0]{maintainer} = [] }],
	['license GPL-2.0 (not a meta-spec name)', sub { $_[0]{license} = 'GPL-2.0' }],
	['license object without a URI', sub { $_[0]{license} = { PostgreSQL => 'see LICENSE' } }],
	['provides empty', sub { $_[0]{provides} = {} }],
	['provides.ulid without a file', sub { delete $_[0]{provides}{ulid}{file} }],
	['provides.ulid.file not in the distribution', sub { $_[0]{provides}{ulid}{file} = 'sql/nothing.sql' }],
	['provides.ulid.file an absolute path', sub { $_[0]{provides}{ulid}{file} = '/etc/passwd' }],
	['provides.ulid without a version', sub { delete $_[0]{provides}{ulid}{version} }],
	['provides.ulid with an unknown field', sub { $_[0]{provides}{ulid}{doc} = 'README.md' }],
	['meta-spec version 2.0.0', sub { $_[0]{'meta-spec'}{version} = '2.0.0' }],
	['meta-spec url not a URI', sub { $_[0]{'meta-spec'}{url} = 'pgxn meta spec' }],
	['an unknown top-level field', sub { $_[0]{homepage} = 'https://example.org/' }],
	['tags a string', sub { $_[0]{tags} = 'ulid' }],
	['a tag with a slash', sub { push @{$_[0]{tags}}, 'ulid/uuid' }],
	['prereqs with an unknown phase', sub { $_[0]{prereqs}{install} = { requires => { PostgreSQL => '13.0.0' } } }],
	['prereqs with an unknown relationship', sub { $_[0]{prereqs}{runtime}{needs} = { PostgreSQL => '13.0.0' } }],
	['a prereq version that is no range', sub { $_[0]{prereqs}{runtime}{requires}{PostgreSQL} = 'thirteen' }],
	['release_status final', sub { $_[0]{release_status} = 'final' }],
	['resources.homepage not a URI', sub { $_[0]{resources} = { homepage => 'our site' } }],
	['no_index with an unknown field', sub { $_[0]{no_index} = { files => ['test'] } }],
);
for my $case (@broken) {
	my ($what, $change) = @$case;
	my @found = validate(mutated($change), '.');
	ok(@found, "a META.json $what is rejected" . (@found ? ": $found[0]" : ''));
}
ok(!validate(mutated(sub { $_[0]{x_ulid_note} = 'custom'; $_[0]{resources} = {
	homepage => 'https://example.org/ulid', repository => { url => 'https://example.org/ulid.git', type => 'git' } } }), '.'),
	'a custom x_ field and well-formed resources are accepted');

# --- one version, written in ulid.control ---------------------------------
my ($version) = slurp('ulid.control') =~ /^default_version\s*=\s*'([^']+)'/m;
ok(defined $version, "ulid.control has a default_version ($version)");
like(slurp('ulid.control'), qr/^trusted\s*=\s*true/m, 'ulid.control: trusted = true');
like(slurp('ulid.control'), qr/^comment\s*=\s*'.+'/m, 'ulid.control: has a comment');
is($meta->{name}, 'ulid', 'META.json name');
is($meta->{version}, $version, 'META.json version agrees with ulid.control');
is($meta->{provides}{ulid}{version}, $version, 'provides.ulid.version agrees');
is($meta->{provides}{ulid}{file}, "ulid--$version.sql", 'provides.ulid.file is the install script of this version');
is($meta->{license}, 'postgresql', 'license: postgresql, as LICENSE says');
is(`make -s --no-print-directory -f Makefile print-version 2>/dev/null`, "$version\n", 'Makefile reads the same version');
like(slurp('LICENSE'), qr/PostgreSQL License/, 'LICENSE is the PostgreSQL licence');
like(slurp('CHANGELOG.md'), qr/\Q$version\E/, 'CHANGELOG.md mentions this version');
like(slurp('README.md'), qr/ulid-\Q$version\E\.zip/, "README.md tells how to install ulid-$version.zip");
unlike(slurp('README.md'), qr/pgxn install/, 'README.md tells of no pgxn install (no release is published there)');
# the README's first screen (30 lines): what ulid is, a five-line example,
# then the two commands people run first; installation details come later
my @first = (split /\n/, slurp('README.md'))[0 .. 29];
my $screen = join "\n", @first;
like($screen, qr/^`ulid` is a PostgreSQL extension/m, "README's first screen says what ulid is");
my ($example) = $screen =~ /```sql\n(.*?)```/s;
is(scalar(() = ($example // '') =~ /;\s*(--[^\n]*)?$/mg), 5, "README's first screen shows a five-statement SQL example");
ok($screen =~ /```sql.*```.*^make demo .*^make test /ms, "README's first screen then gives 'make demo' and 'make test'");
unlike($screen, qr/^##+ /m, "README's first screen is not cut by a section heading");
like(slurp('README.md'), qr/^## Installing$/m, 'README.md has its own Installing section');
my ($deb_version) = slurp('debian/changelog') =~ /^ulid \(([^)]+)\)/;
is($deb_version, $version, 'debian/changelog is at the same version');
done_testing();
