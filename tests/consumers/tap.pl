# Reads a TAP document (the file given) as Perl's TAP::Parser, the parser of `prove`,
# does and prints what it read as JSON, for tests/consumers.rs.
use strict;
use warnings;
use TAP::Parser;
use JSON::PP;

my $file = shift or die "usage: tap.pl FILE\n";
open my $fh, '<:encoding(UTF-8)', $file or die "$file: $!\n";
my $tap = do { local $/; <$fh> };
my $parser = TAP::Parser->new({ tap => $tap });
my (@points, $last);
while (my $r = $parser->next) {
    if ($r->is_test) {
        $last = { number => $r->number, ok => $r->is_ok ? JSON::PP::true : JSON::PP::false,
                  description => $r->description, directive => $r->directive, explanation => $r->explanation };
        push @points, $last;
    } elsif ($r->is_yaml) {
        # A YAML block belongs to the test point just before it; one under an indented
        # subtest's point (which TAP 13 does not read) belongs to none.
        $last->{yaml} = $r->data if $last && !exists $last->{yaml};
    } elsif (!$r->is_comment && !$r->is_unknown) {
        $last = undef if $r->is_plan;
    } else {
        $last = undef if $r->is_unknown;
    }
}
print JSON::PP->new->utf8->canonical->encode({
    version      => $parser->version,
    parse_errors => [ $parser->parse_errors ],
    tests_run    => $parser->tests_run,
    tests_planned => $parser->tests_planned,
    passed       => scalar(my @p = $parser->passed),
    failed       => scalar(my @f = $parser->failed),
    skipped      => scalar(my @s = $parser->skipped),
    points       => \@points,
}), "\n";
