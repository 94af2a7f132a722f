#!/usr/bin/perl
# test/suites/readme_examples.pl [README.md]: runs the README's SQL examples, as a
# reader pasting them into psql would, and prints TAP.
#
#   - Every ```sql block runs, in the README's order, in one fresh database
#     (the blocks build on one another), each block in one psql session.
#     A statement must not fail, unless it ends with "-- → ERROR: ...".
#   - A statement ending with "-- → RESULT" must print RESULT (psql -At:
#     columns joined by " | ", rows by ", "), or, for "ERROR: message",
#     fail with that message.
#   - In the text, `EXPR` → `RESULT`, where EXPR has a call or a cast, is
#     run as SELECT EXPR and compared the same way.
#   - A block fenced ```sql citus needs Citus: it is reported as skipped
#     where Citus is not installed.
#
# Needs PGHOST/PGPORT/PGUSER of a running server with the extension
# installed; makes and drops the database readme_examples.
use strict;
use warnings;

my $readme = shift // 'README.md';
open my $fh, '<', $readme or die "$readme: $!";
my @lines = <$fh>;
close $fh;

my $db = 'readme_examples';
$ENV{PGTZ} = 'UTC';
system('dropdb', '--if-exists', $db) == 0 or die "dropdb failed\n";
system('createdb', $db) == 0 or die "createdb failed\n";
my $have_citus = `psql -X -At -d $db -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'citus'"`;
chomp $have_citus;

my $n = 0;
sub report
{
	my ($ok, $what, $detail) = @_;
	$n++;
	print(($ok ? "ok" : "not ok") . " $n - $what\n");
	print map { "#   $_\n" } split /\n/, $detail if !$ok && defined $detail;
}

sub normalize
{
	my ($s) = @_;
	$s =~ s/\s+/ /g;
	$s =~ s/^ | $//g;
	return $s;
}

# Runs a list of statements in one session; for each, what it printed and
# its error message, if any.
sub run_session
{
	my @statements = @_;
	my $script = join '', map { "\\echo '\@\@ $_'\n$statements[$_]\n" } 0 .. $#statements;
	$script .= "\\echo '\@\@ end'\n";
	my $file = "/tmp/readme_examples.$$.sql";
	open my $out, '>', $file or die "$file: $!";
	print $out $script;
	close $out;
	my $output = `psql -X -q -At -F ' | ' -d $db -f $file 2>&1`;
	unlink $file;
	my (%printed, %error, $current);
	for my $line (split /\n/, $output)
	{
		if ($line =~ /^\@\@ (\d+|end)$/) { $current = $1; next; }
		next unless defined $current;
		if ($line =~ /^psql:[^:]*:\d+: ERROR:\s+(.*)/) { $error{$current} //= $1; next; }
		next if $line =~ /^psql:[^:]*:\d+: (NOTICE|WARNING|DETAIL|HINT|LINE|CONTEXT)|^\s+\^/;
		push @{ $printed{$current} }, $line;
	}
	return map { [ join(', ', @{ $printed{$_} // [] }), $error{$_} ] } 0 .. $#statements;
}

# Compares what a statement did with the result the README shows for it.
sub check
{
	my ($what, $got, $error, $expected) = @_;
	if (defined $expected && $expected =~ /^ERROR:\s*(.*)/)
	{
		my $message = $1;
		report(defined $error && normalize($error) eq normalize($message), $what,
			"expected ERROR: $message\ngot " . (defined $error ? "ERROR: $error" : "no error, $got"));
	}
	elsif (defined $error)
	{
		report(0, $what, "ERROR: $error");
	}
	elsif (defined $expected)
	{
		report(normalize($got) eq normalize($expected), $what, "expected $expected\ngot      $got");
	}
	else
	{
		report(1, $what);
	}
}

# 1. The ```sql blocks, in order, each statement checked.
my ($in_block, $block_start, $block_kind, @block) = (0);
for my $i (0 .. $#lines)
{
	my $line = $lines[$i];
	if (!$in_block && $line =~ /^```sql\s*(\w*)\s*$/)
	{
		($in_block, $block_start, $block_kind, @block) = (1, $i + 1, $1);
		next;
	}
	next unless $in_block;
	if ($line !~ /^```\s*$/)
	{
		push @block, [ $i + 1, $line ];
		next;
	}
	$in_block = 0;
	if ($block_kind eq 'citus' && $have_citus eq '0')
	{
		$n++;
		print "ok $n - README.md:$block_start: the Citus example # SKIP Citus is not installed\n";
		next;
	}
	# statements: up to a line whose code (before any "--") ends with ";"
	my (@statements, @expected, @where, $text, $first);
	for my $l (@block)
	{
		my ($number, $content) = @$l;
		$first //= $number;
		$text .= $content;
		my ($code, $comment) = split /--/, $content, 2;
		# a result on a line of its own belongs to the statement before it
		if ($code =~ /^\s*$/ && defined $comment && $comment =~ /→\s*(.*?)\s*$/ && @statements
			&& $text eq $content)
		{
			$expected[-1] = $1;
			($text, $first) = (undef, undef);
			next;
		}
		next unless $code =~ /;\s*$/;
		my $result;
		$result = $1 if defined $comment && $comment =~ /→\s*(.*?)\s*$/;
		push @statements, $text;
		push @expected, $result;
		push @where, $first;
		($text, $first) = (undef, undef);
	}
	my @results = run_session(@statements);
	for my $s (0 .. $#statements)
	{
		my ($got, $error) = @{ $results[$s] };
		my $summary = normalize((split /--/, $statements[$s])[0]);
		$summary = substr($summary, 0, 60) . '...' if length $summary > 63;
		check("README.md:$where[$s]: $summary", $got, $error, $expected[$s]);
	}
}

# 2. `EXPR` → `RESULT` in the text.
for my $i (0 .. $#lines)
{
	my $line = $lines[$i];
	next if $line =~ /^\s*(```|    )/;
	while ($line =~ /`([^`]+)`\s*→\s*`([^`]*)`/g)
	{
		my ($expr, $expected) = ($1, $2);
		next unless $expr =~ /\(|::/;	# an expression, not a type name
		my ($result) = run_session("SELECT $expr;");
		check("README.md:" . ($i + 1) . ": $expr", $result->[0], $result->[1], $expected);
	}
}

system('dropdb', $db);
print "1..$n\n";
