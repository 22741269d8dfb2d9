#!/usr/bin/env bash
# Reproduces defects 1-8 of issue 14 with the raydb binary $1 and prints one line per
# defect (what a user sees), so a build before the fixes and one after can be compared:
#   bash scripts/trust_audit.sh /path/to/old/raydb; bash scripts/trust_audit.sh build/raydb
R=$(realpath "$1")
W=$(mktemp -d)
cd $W
printf 'd,s,i\n1.5,a,1\nnan,b,2\ninf,c,3\n-inf,a,4\n2,b,5\n' > t.csv
RAYDB_QUIET=1 $R load csv --db db --table t --schema "d DOUBLE, s VARCHAR, i INTEGER" --header t.csv >/dev/null 2>&1
python3 -c "print('select ' + 'NOT '*100000 + 'true;')" > not.sql
$R query --db db -f not.sql >o 2>e; echo "1 NOT x100000: exit $? $(head -c 100 e)"
python3 -c "print('select ' + '+'.join(['1']*30000) + ' as s;')" > chain.sql
$R query --db db --format csv -f chain.sql >o 2>e; echo "1 chain 30000: exit $? $(tr '\n' ' ' < o | head -c 40) $(head -c 80 e)"
cp -r db db2; f=$(python3 -c "import json;m=json.load(open('db2/manifest.json'));print(m['tables'][0]['columns'][1]['file'])")
python3 -c "
import struct;p='db2/$f';b=bytearray(open(p,'rb').read());b[4:8]=struct.pack('<i',-1);open(p,'wb').write(b)"
$R query --db db2 "select min(s) from t" >o 2>e; echo "2 negative code: exit $? $(head -c 120 e)"
cp -r db db3; python3 - <<'P'
import json,re
t=open('db3/manifest.json').read()
m=json.loads(t)
c=m['tables'][0]['columns'][2]; c['stats']['max']=1
m.pop('manifest_checksum',None)
for col in m['tables'][0]['columns']: col.pop('checksum',None); col.get('dictionary',{}).pop('checksum',None)
open('db3/manifest.json','w').write(json.dumps(m,indent=1))
P
$R query --db db3 --format csv "select count(*) from t where i > 3" >o 2>e; echo "3 edited max of i (answer 2): exit $? $(tr '\n' ' ' < o) $(head -c 120 e)"
$R query --db db --format csv "select d from t order by d" >o 2>e; echo "4 order by d: $(tr '\n' ' ' < o)"
$R query --db db --format json "select d from t where i = 2" >o 2>e; echo "4 json nan: $(tr '\n' ' ' < o)"
printf 's\nok\n\xff\n' > u.csv
$R load csv --db db --table u --schema "s VARCHAR" --header u.csv >o 2>e; echo "5 invalid utf-8 load: exit $? $(head -c 120 e)"
$R query --db db --format json "select s from u" >o 2>e; echo "5 json of it: exit $? $(head -c 100 e)"
$R query --nonsense-flag >o 2>e; echo "6 unknown flag: exit $? $(head -c 100 e)"
printf 'select 2 as a; select 3 as b;\nselect nosuch from t;\nselect 4 as c' | $R shell --db db --format csv >o 2>e; echo "7 shell: exit $? out=[$(tr '\n' ' ' < o)] err=[$(head -c 80 e)]"
$R query --db db --format csv "select cast(2.5::double as integer) as x" >o 2>e; echo "8 cast 2.5: $(tr '\n' ' ' < o) $(head -c 80 e)"
$R query --db db --format csv "select -2147483648 / -1 as q" >o 2>e; echo "8 -2^31/-1: $(tr '\n' ' ' < o) $(head -c 80 e)"
rm -rf $W
