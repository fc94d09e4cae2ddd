import { PGlite } from "@electric-sql/pglite";
let t=Date.now(); let a=new PGlite(); await a.waitReady; console.log("memory new", Date.now()-t);
t=Date.now(); const dump = await a.dumpDataDir("none"); console.log("dump", Date.now()-t, dump.size, dump.constructor.name); await a.close();
for (let i=0;i<3;i++){ t=Date.now(); let b=new PGlite({loadDataDir: dump}); await b.waitReady; console.log("load", Date.now()-t); await b.query("create table x(id int)"); await b.close(); }
t=Date.now(); const dz = await (async()=>{let a=new PGlite(); await a.waitReady; const d=await a.dumpDataDir("gzip"); await a.close(); return d})(); console.log("gz", dz.size, Date.now()-t);
t=Date.now(); let b=new PGlite({loadDataDir: dz}); await b.waitReady; console.log("load gz", Date.now()-t);
